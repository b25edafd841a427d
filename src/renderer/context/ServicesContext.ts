import { createContext, useContext } from "react";
import type { AppServices } from "../services/app-services";

export const ServicesContext = createContext<AppServices | null>(null);

/** The host services; throws when used outside `<App>`, which always provides them. */
export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error("useServices() used outside <App>");
  return services;
}
