import { useEffect, useState } from "react";
import type { SignInState } from "../../../shared/protocol/accounts";
import { useServices } from "../../context/ServicesContext";

/**
 * The latest account sign-in, as main's `sign-in` events tell it (pages never poll), or as `started` sets it from
 * `startSignIn`'s answer (the event may arrive first or later: the newer flow, or the later state of one, wins).
 */
export function useSignIn(): { state: SignInState | undefined; started(state: SignInState): void } {
  const services = useServices();
  const [state, setState] = useState<SignInState | undefined>();
  useEffect(() => services.onEvent((event) => {
    if (event.type === "sign-in") setState(event.state);
  }), [services]);
  const started = (next: SignInState) => setState((current) => (current?.id === next.id ? current : next));
  return { state, started };
}
