export function findElectronBinary(): { path: string } | { missing: string };
export function skipMessage(missing: string): string;
