#!/usr/bin/env node
// Development entry: the same as run.js, after `npm run build` (tsc is fast enough here).
import './run.js';
