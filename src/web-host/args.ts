/**
 * The web host's command line. Parsing never touches the disk or the network; a bad flag is a readable Error.
 */
export interface WebHostArgs {
  dataDir: string;
  /** Output of `electron-vite build` (main/agent-worker.js, renderer/); default ./out next to src/. */
  buildDir?: string;
  /** 0 = a random free port. */
  port: number;
  openaiTestServer: boolean;
  /** An OpenAI-compatible server already running on loopback, registered as "Loopback" (tests script it). */
  loopbackUrl?: string;
  integrityCheck: boolean;
  /** A loopback stand-in OAuth server (oauth-test-server.ts) whose flow replaces GitHub Copilot's sign-in (tests). */
  oauthTestUrl?: string;
}

const LOOPBACK_URL = /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\]):\d+(\/\S*)?$/;

export const USAGE =
  "usage: tsx src/web-host/main.ts [--data-dir DIR] [--build-dir DIR] [--port N] [--openai-test-server | --loopback-url URL] [--oauth-test-url URL] [--integrity-check]";

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
      case "--build-dir":
        args.buildDir = value();
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
      case "--loopback-url": {
        const url = value();
        if (!LOOPBACK_URL.test(url)) {
          throw new Error(`--loopback-url must be an http URL on a loopback address, got ${url}`);
        }
        args.loopbackUrl = url;
        break;
      }
      case "--oauth-test-url": {
        const url = value();
        if (!LOOPBACK_URL.test(url)) throw new Error(`--oauth-test-url must be an http URL on a loopback address, got ${url}`);
        args.oauthTestUrl = url;
        break;
      }
      case "--integrity-check":
        args.integrityCheck = true;
        break;
      default:
        throw new Error(`unknown argument ${flag}\n${USAGE}`);
    }
  }
  if (args.openaiTestServer && args.loopbackUrl) throw new Error("use --openai-test-server or --loopback-url, not both");
  return args;
}
