#!/usr/bin/env node
// Entry point of the `fishlog` command: runs the compiled CLI (built by `npm ci`/`npm run build`).
import { main } from '../dist/cli/index.js';

process.exitCode = await main(process.argv.slice(2));
