/**
 * Where the local certificate authority lives: one folder per user, in the user's data folder
 * (`$XDG_DATA_HOME/svc-mock/ca`, else `~/.local/share/svc-mock/ca` on Linux and other Unix;
 * `~/Library/Application Support/svc-mock/ca` on macOS; `%LOCALAPPDATA%\svc-mock\ca` on
 * Windows), or wherever `SVC_MOCK_CA_DIR` says.
 */
import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'

/** The environment variable that puts the CA somewhere else (tests, CI caches, a shared folder). */
export const CA_DIR_VARIABLE = 'SVC_MOCK_CA_DIR'

/** The CA's certificate (what clients trust) and private key (mode 0600), inside the folder. */
export const CA_CERT_FILE = 'ca.pem'
export const CA_KEY_FILE = 'ca-key.pem'

export type Environment = Readonly<Record<string, string | undefined>>

/** The folder of the local CA for this environment and platform. */
export function caFolder(env: Environment = process.env, platform: string = process.platform, home: string = homedir()): string {
  const chosen = env[CA_DIR_VARIABLE]
  if (chosen !== undefined && chosen !== '') return resolve(chosen)
  return join(dataFolder(env, platform, home), 'svc-mock', 'ca')
}

/** The user's data folder, as each platform names it. */
function dataFolder(env: Environment, platform: string, home: string): string {
  if (platform === 'win32') return env.LOCALAPPDATA ?? env.APPDATA ?? join(home, 'AppData', 'Local')
  if (platform === 'darwin') return join(home, 'Library', 'Application Support')
  // The XDG base directory specification ignores a relative XDG_DATA_HOME.
  const xdg = env.XDG_DATA_HOME
  return xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, '.local', 'share')
}
