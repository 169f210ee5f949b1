#!/usr/bin/env node
// The `consigna-sdk` command (package.json "bin"); the command itself is dist/cli.js.
// A file kept in the repository, so that npm links the command even before dist/ exists:
// `npm ci` at the repository's root links the workspace's bins first, and builds the SDK
// afterwards (its prepare).
import '../dist/cli.js';
