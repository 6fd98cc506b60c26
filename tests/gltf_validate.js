// Run the Khronos glTF validator (npm gltf-validator, installed by scripts/setup.sh into
// node_modules/) on each file given; print one JSON object per line:
// {"file": ..., "messages": [{"code", "severity", "pointer"}...]} (severity 0 error .. 3 hint).
// External resources are read only from the asset's own folder.
const fs = require("fs");
const path = require("path");
const validator = require(path.join(__dirname, "..", "node_modules", "gltf-validator"));

async function one(file) {
  const dir = path.dirname(path.resolve(file));
  const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
    uri: path.basename(file),
    maxIssues: 0,
    externalResourceFunction: (uri) => new Promise((resolve, reject) => {
      const target = path.resolve(dir, decodeURIComponent(uri));
      if (path.dirname(target) !== dir && !target.startsWith(dir + path.sep)) {
        reject(new Error("outside the asset's folder"));
        return;
      }
      fs.readFile(target, (err, data) => (err ? reject(err) : resolve(new Uint8Array(data))));
    }),
  });
  const messages = (report.issues.messages || []).map((m) => ({
    code: m.code, severity: m.severity, pointer: m.pointer || "", message: m.message,
  }));
  return { file, messages };
}

(async () => {
  for (const file of process.argv.slice(2)) {
    try {
      console.log(JSON.stringify(await one(file)));
    } catch (err) {
      console.log(JSON.stringify({ file, error: String(err) }));
    }
  }
})();
