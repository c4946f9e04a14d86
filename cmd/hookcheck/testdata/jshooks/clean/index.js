// Reads module-level constants, keeps its state where it lasts.
const MAX = 3;
const words = ["rm -rf", "mkfs"];

function refuse(reason) {
  return { allow: false, reason };
}

module.exports = {
  beforeToolExecute(ctx, call) {
    const n = (ctx.state && ctx.state.n) || 0;
    for (const w of words) {
      if (String(call.arguments.command || "").includes(w)) {
        return refuse("no " + w);
      }
    }
    return n >= MAX ? refuse("enough") : { state: { n: n + 1 }, result: { text: "ok", isError: false } };
  },
  afterRun() {},
};
