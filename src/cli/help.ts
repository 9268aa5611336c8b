/**
 * The help texts: svc-mock's usage with every flag and its environment twin (each entry made from
 * the flag's declaration), and one text for each command (exec, scenarios, ca, help), each ending
 * with where the documentation is.
 */
import { DEFAULT_PORT } from '../adapters/constants.js'
import { packagePath } from '../kernel/package-root.js'
import { HOMEPAGE, VERSION } from '../version.js'
import { FLAGS, hint } from './flags.js'
import type { CliIo } from './io.js'
import { UsageError } from './options.js'

/** Where the documentation is, named in every help text. */
function docsLine(): string {
  return `Docs: ${packagePath('README.md')} and ${packagePath('docs')}/ (scenarios.md, assumptions.md, openapi.json), also at ${HOMEPAGE}`
}

/** The help's column for a flag's text, and for its variable when it fits on a line. */
const TEXT_COLUMN = 24
const VARIABLE_COLUMN = 68
const WIDTH = 110

/** The options, one entry a flag, each made from the flag's declaration alone. */
function optionsText(): string {
  const entries = FLAGS.flatMap((flag) => {
    const head = `  --${flag.name}${flag.placeholder === undefined ? '' : ` ${flag.placeholder}`}`.padEnd(TEXT_COLUMN - 1)
    const lines = flag.help.split('\n').map((line, i) => (i === 0 ? `${head} ${line}` : `${' '.repeat(TEXT_COLUMN)}${line}`))
    const variable = `[${flag.kind === 'switch' ? `${flag.env}=${String(flag.sets ?? true)}` : flag.env}${flag.envHelp === undefined ? (flag.split === undefined ? '' : `, separated by "${flag.split}"`) : `, ${flag.envHelp}`}]${flag.default === undefined ? '' : ` default ${flag.default}`}`
    const last = lines.pop() ?? head
    const joined = last.length < VARIABLE_COLUMN ? `${last.padEnd(VARIABLE_COLUMN)}${variable}` : `${last}  ${variable}`
    return joined.length <= WIDTH ? [...lines, joined] : [...lines, last, `${' '.repeat(VARIABLE_COLUMN)}${variable}`]
  })
  return ['Options (environment variable in brackets; a flag wins over its variable):', ...entries, '  -h, --help            this text', '  -v, --version         the version'].join('\n')
}

const HELP = `svc-mock ${VERSION}: a local emulator of the platform's OAuth, REST and inbound-webhook APIs.

Usage:
  svc-mock [options]                     start the emulator (default http://127.0.0.1:${DEFAULT_PORT})
  svc-mock exec [options] -- <command…>  start it on a free port, run the command with SVC_MOCK_URL
                                         in its environment, stop it when the command ends
  svc-mock scenarios [options]           list the failure scenarios with what they do
  svc-mock ca                            print the local CA certificate's path (made if there is none)
  svc-mock verify --target URL [options] compare svc-mock with your team (svc-mock help verify)
  svc-mock help [command]                this text, or a command's
  svc-mock --help | --version

{options}

Exit codes: 0 after a clean stop (SIGINT, SIGTERM), 1 when the port is in use or the server fails,
2 for a bad flag, variable, fixture, scenario or route file; exec: the command's own code.
Dashboard (in a browser) and control plane: http://HOST:PORT/__svc-mock/ once running.
{docs}`

const EXEC_HELP = `svc-mock exec [options] -- <command> [args…]

Starts the emulator (on a free port unless the port is given, as for svc-mock), runs the
command with these variables added to its environment, and stops the emulator when the command
ends, however it ends. Exits with the command's code (128 + the signal's number when a signal
ended it; 127 when the command is not found). The command runs in a process group of its own;
when it ends, what it left running in that group gets SIGTERM (SIGKILL 1 s later), so nothing
it started outlives exec. SIGINT, SIGTERM and SIGHUP sent to svc-mock are passed on to the group
(SIGKILL 10 s later). If the process that started svc-mock dies (its parent, or npm behind
npx's sh -c) the group is ended at once and svc-mock exits within 2 s.

  SVC_MOCK_URL          the emulator's address, e.g. http://127.0.0.1:41234
  SVC_MOCK_AUTH_URL     {auth_url}: token, authorize, discovery
  SVC_MOCK_BASE_URL     {base_url}: the REST API and the control plane (/__svc-mock/)
  SVC_MOCK_WEBHOOK_URL  where webhook addresses live (/hooks/{token})

With --https the addresses are https:// and the command also gets
  SVC_MOCK_CA_FILE      the local CA certificate's path (svc-mock ca)
  NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE, SSL_CERT_FILE, CURL_CA_BUNDLE
                        all one bundle, for this run only: the CA, what each of them named
                        before, and the system's root certificates in place of one unset, so
                        Node.js, Python (requests, httpx, ssl) and curl trust svc-mock and
                        everything they trusted before

The emulator writes its log to standard error (standard output is the command's).
Takes every option of svc-mock (svc-mock help). Example:
  svc-mock exec --scenario latency:ms=200 -- npm test
{docs}`

const SCENARIOS_HELP = `svc-mock scenarios [options]

Lists the failure scenarios: each name with its parameters and defaults, and what it does
(--log json: one JSON object a scenario). --scenarios DIR adds your own files to the list.
Switch one on with --scenario NAME[:key=value,...], the x-svc-mock-scenario header, or
POST /__svc-mock/scenarios/NAME.
{docs}`

const CA_HELP = `svc-mock ca

Prints the path of svc-mock's local certificate authority (the certificate that signs what
svc-mock --https presents), making it first if there is none, and making it anew (saying so) if
it was made by an older svc-mock without name constraints. It vouches for localhost,
*.localhost, *.test, *.internal, 127.0.0.0/8 and ::1 only, so trusting it trusts no real site.
Trust it in your client:
  export REQUESTS_CA_BUNDLE=$(npx svc-mock ca)      # Python requests
  export NODE_EXTRA_CA_CERTS=$(npx svc-mock ca)     # Node.js, read when node starts
  curl --cacert "$(npx svc-mock ca)" https://127.0.0.1:4010/__svc-mock/health
The CA lives in the user's data folder (SVC_MOCK_CA_DIR puts it elsewhere); its private key stays
there, readable by the user only, and is never printed. With --log json: {"event":"ca","caFile",…}.
{docs}`

const HELP_HELP = `svc-mock help [command]

Prints the usage of svc-mock, or of one command: exec, scenarios, ca, verify, help.
{docs}`

/** What the command does: `serve` when no command is named. */
export type Command = 'serve' | 'exec' | 'scenarios' | 'ca' | 'help'
/** The commands a user names on the command line. */
export const NAMED_COMMANDS = ['exec', 'scenarios', 'ca', 'help'] as const

const COMMAND_HELP: Readonly<Record<Command, string>> = { serve: HELP, exec: EXEC_HELP, scenarios: SCENARIOS_HELP, ca: CA_HELP, help: HELP_HELP }

/** `svc-mock help [command]`: prints the usage, or one command's. */
export function help(topics: readonly string[], io: CliIo): number {
  if (topics.length > 1) throw new UsageError(`help takes one command, got "${topics.join(' ')}"`)
  const topic = topics[0]
  if (topic === undefined) {
    io.out(helpText('serve'))
    return 0
  }
  if (!(NAMED_COMMANDS as readonly string[]).includes(topic)) {
    throw new UsageError(`no help for "${topic}"${hint(topic, NAMED_COMMANDS)} (commands: ${NAMED_COMMANDS.join(', ')})`)
  }
  io.out(helpText(topic as Command))
  return 0
}

/** A command's help text with the documentation's whereabouts filled in. */
export function helpText(command: Command): string {
  return COMMAND_HELP[command].replace('{options}', () => optionsText()).replace('{docs}', docsLine())
}
