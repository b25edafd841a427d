import { useEffect, useState } from "react";
import { CHECKPOINT_FILE_MB, CHECKPOINT_STORAGE_MB } from "../../../../shared/settings/schema";
import { dropReportText, formatStorageSize, type CheckpointStorageStatus } from "../../../../shared/protocol/checkpoint-storage";
import { errorText } from "../../../../shared/error-text";
import { useServices } from "../../../context/ServicesContext";
import { Check, Group, NumberField } from "../fields";
import type { SettingsSectionProps } from "./section-props";

/**
 * "Checkpoints": whether chats record their workspace's changes (so they can be seen and taken back), the largest
 * file kept, the store's limit with its use now, what main last dropped to stay under it, and "Clear all".
 */
export function CheckpointsSection({ settings, save, onError }: SettingsSectionProps) {
  const { checkpoints } = settings;
  return (
    <>
      <Group description="Before each run and after each tool call that can change files, a chat records its workspace, so you can see what the agent changed and take it back. Files your .gitignore ignores are not tracked, and the .git folder is never touched.">
        <Check label="Record checkpoints of each chat's workspace" checked={checkpoints.enabled}
          onChange={(v) => void save({ checkpoints: { enabled: v } })} />
        <NumberField id="set-checkpoint-file" testId="checkpoint-max-file" label="Largest file kept (MB)"
          min={CHECKPOINT_FILE_MB.min} max={Math.min(CHECKPOINT_FILE_MB.max, checkpoints.storageLimitMB)}
          hint="A larger file is recorded as changed, without a copy: it cannot be taken back."
          value={checkpoints.maxFileMB} onError={onError}
          invalid={`The largest file kept must be a whole number of MB from ${CHECKPOINT_FILE_MB.min} to ${Math.min(CHECKPOINT_FILE_MB.max, checkpoints.storageLimitMB)}.`}
          commit={(mb) => save({ checkpoints: { maxFileMB: mb } })} />
        <NumberField id="set-checkpoint-limit" testId="checkpoint-storage-limit" label="Storage limit (MB)"
          min={Math.max(CHECKPOINT_STORAGE_MB.min, checkpoints.maxFileMB)} max={CHECKPOINT_STORAGE_MB.max}
          hint="For every chat's checkpoints together. Above it, the oldest checkpoints are dropped first; each chat keeps its latest."
          value={checkpoints.storageLimitMB} onError={onError}
          invalid={`The storage limit must be a whole number of MB from ${Math.max(CHECKPOINT_STORAGE_MB.min, checkpoints.maxFileMB)} to ${CHECKPOINT_STORAGE_MB.max}.`}
          commit={(mb) => save({ checkpoints: { storageLimitMB: mb } })} />
        <CheckpointStorage limitMB={checkpoints.storageLimitMB} />
      </Group>
    </>
  );
}

/** The store's use against the limit, the last drop with its date, and "Clear all checkpoints" with a confirm. */
function CheckpointStorage({ limitMB }: { limitMB: number }) {
  const { app } = useServices();
  const [status, setStatus] = useState<CheckpointStorageStatus | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const act = async (call: () => Promise<CheckpointStorageStatus>) => {
    setBusy(true);
    try {
      setStatus(await call());
      setFailure(undefined);
    } catch (e) {
      setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    void act(() => app.checkpointStorage());
    // Again when the limit changes: main may have dropped checkpoints to meet it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [limitMB]);
  const use = status ? `${formatStorageSize(status.bytes)} of ${formatStorageSize(status.limitBytes)} used` : failure ? "" : "Measuring…";
  return (
    <div className="field checkpoint-storage" data-testid="checkpoint-storage">
      <div className="field-label">
        <span className="field-label-text">Storage used</span>
        <div className="field-hint" role="status" data-testid="checkpoint-usage">{use}</div>
        {status && status.bytes > status.limitBytes ? (
          <div className="field-hint" data-testid="checkpoint-over-limit">
            Over the limit: each chat keeps its latest checkpoint. A higher limit, or Clear all, makes room.
          </div>
        ) : null}
        {status?.lastDrop ? (
          <div className="field-hint" data-testid="checkpoint-last-drop">
            {dropReportText(status.lastDrop)}, <time dateTime={new Date(status.lastDrop.at).toISOString()}>{new Date(status.lastDrop.at).toLocaleString()}</time>.
          </div>
        ) : null}
        {failure || status?.problem ? <div className="field-hint field-error" role="alert" data-testid="checkpoint-problem">{failure ?? status?.problem}</div> : null}
      </div>
      <div className="field-control checkpoint-clear">
        {confirming ? (
          <>
            <span className="checkpoint-confirm">Clear every chat’s checkpoints? Their changes can no longer be taken back.</span>
            <button type="button" className="btn btn-danger" disabled={busy} data-testid="checkpoint-clear-confirm"
              onClick={() => void act(() => app.clearCheckpoints()).then(() => setConfirming(false))}>Clear all</button>
            <button type="button" className="btn btn-ghost" onClick={() => setConfirming(false)}>Keep</button>
          </>
        ) : (
          <button type="button" className="btn btn-secondary" disabled={busy} data-testid="checkpoint-clear"
            onClick={() => setConfirming(true)}>Clear all checkpoints</button>
        )}
      </div>
    </div>
  );
}
