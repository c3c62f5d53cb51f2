import { osc52 } from '../osc52.js';
import type { ResponseCapture } from '../response-capture.js';
import type { AppHost } from './host.js';

/** OSC 52 goes straight to the terminal, around neo-blessed's screen buffer. */
export function copyToClipboard(app: AppHost, text: string, what: string): void {
  const { sequence, truncated } = osc52(text);
  app.screen.program.output.write(sequence);
  app.say(truncated ? `copied the first 512 kB of the ${what} (OSC 52)` : `copied the ${what} to the clipboard (OSC 52)`, 'ok');
}

/** `y`: the response body as received (not as shown) to the clipboard. */
export function copyBody(app: AppHost, capture: ResponseCapture | undefined): void {
  if (!capture || capture.empty) return app.say('nothing to copy yet: send a request first', 'warn');
  const text = capture.copyText();
  if (text === '') return app.say('the body is empty or binary: nothing copied', 'warn');
  copyToClipboard(app, text, 'response body');
}

/** `C`: the request as sent, as a curl command (`--as curl`'s printer), secrets masked (a clipboard is not a safe place for them). */
export async function copyAsCurl(app: AppHost, capture: ResponseCapture | undefined): Promise<void> {
  const outgoing = capture?.outgoing;
  if (!outgoing) return app.say('nothing to copy yet: send a request first', 'warn');
  const [{ asCurl }, { shownSecrets }] = await Promise.all([import('../../report/as-curl.js'), import('../../report/secrets-shown.js')]);
  const command = asCurl(outgoing, shownSecrets(false, (text) => app.workspace.secrets.scrub(text)));
  copyToClipboard(app, command, 'request as curl (secrets masked)');
}
