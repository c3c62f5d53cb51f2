// The peak resident memory of this process, in kB.
// VmHWM from /proc, not process.resourceUsage().maxRSS: on Linux maxRSS keeps the high-water mark
// of the process image before exec, i.e. of the (large) jest worker that forked this process.
const { readFileSync } = require('node:fs');

function peakRssKb() {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]);
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS;
}

module.exports = { peakRssKb };
