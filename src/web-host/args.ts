/**
 * The web host's command line. Parsing never touches the disk or the network; a bad flag is a readable Error.
 */
export interface WebHostArgs {
  dataDir: string;
  /** 0 = a random free port. */
  port: number;
  openaiTestServer: boolean;
  integrityCheck: boolean;
}

export const USAGE =
  "usage: tsx src/web-host/main.ts [--data-dir DIR] [--port N] [--openai-test-server] [--integrity-check]";

export function parseArgs(argv: readonly string[]): WebHostArgs {
  const args: WebHostArgs = { dataDir: "./.paddock-dev", port: 0, openaiTestServer: false, integrityCheck: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined || v.startsWith("--")) throw new Error(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case "--data-dir":
        args.dataDir = value();
        break;
      case "--port": {
        const raw = value();
        const port = Number(raw);
        if (!/^\d+$/.test(raw) || port > 65535) throw new Error(`--port must be an integer 0..65535, got ${raw}`);
        args.port = port;
        break;
      }
      case "--openai-test-server":
        args.openaiTestServer = true;
        break;
      case "--integrity-check":
        args.integrityCheck = true;
        break;
      default:
        throw new Error(`unknown argument ${flag}\n${USAGE}`);
    }
  }
  return args;
}
