// The baseline of bench/plugins-overhead.js: `reqflow run FILE` exactly as bin/run.cjs serves it
// (same modules loaded), except that plugin collection is replaced by "no plugins" — so the
// difference between the two is what looking for third-party plugins costs.
import { parseRunArgv } from '../../dist/cli/fast-run.js';
import { processIo, runFileCommand } from '../../dist/cli/run-file.js';

const args = process.argv.slice(2);
const { file, flags } = parseRunArgv(args[0] === 'run' ? args.slice(1) : args);
process.exitCode = await runFileCommand(file, flags, processIo(), async () => []);
