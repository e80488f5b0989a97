const m = await import("../dist/src/effects/bash/classify.js"); const p = await import("../dist/src/effects/bash/parser.js"); await p.loadShellParser();
const { staticValue } = await import("../dist/src/effects/bash/words.js");
for (const c of process.argv.slice(2)) { const t = p.parseShell(c); const show = (n, d="") => d + n.type + (n.field? "["+n.field+"]":"") + " " + JSON.stringify(n.text) + " =" + JSON.stringify(staticValue(n)) + "\n" + n.children.map(k => show(k, d+"  ")).join(""); console.log(c, m.explainBashFullPath(c)); console.log(show(t.root)); }
