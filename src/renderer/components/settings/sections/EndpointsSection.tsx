import type { CustomProvider } from "../../../../shared/settings/schema";
import { CustomProvidersEditor } from "../CustomProvidersEditor";
import { Group } from "../fields";
import type { SettingsSectionProps } from "./section-props";

/** "Endpoints": OpenAI-compatible servers (the endpoint editor), each with its own key. */
export function EndpointsSection({ settings, providerStatus, saveOrThrow, onError, onProvidersChanged }: SettingsSectionProps) {
  return (
    <Group description="OpenAI-compatible servers such as Ollama, LM Studio or vLLM.">
      <CustomProvidersEditor
        providers={settings.customProviders}
        providerStatus={providerStatus}
        onSave={async (list: CustomProvider[]) => {
          // A refusal is shown beside the editor's Save button, naming the field (the editor rejects nothing invalid).
          await saveOrThrow({ customProviders: list });
          onProvidersChanged();
        }}
        onKeyChanged={onProvidersChanged}
        onError={onError}
      />
    </Group>
  );
}
