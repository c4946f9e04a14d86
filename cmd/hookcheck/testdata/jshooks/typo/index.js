// Returned keys the runtime ignores, each a slip of a field's name.
exports.beforeToolExecute = (ctx, call) => ({ Allow: false, reason: "no" });

exports.afterToolExecute = function (ctx, call, res) {
  if (res.isError) {
    return { txt: "failed" };
  }
  const inner = () => ({ whatever: 1 }); // a nested function's return is its own
  return ok ? { text: "fine", isError: false } : { value: inner(), iserror: true };
};

async function request(ctx, req) {
  return { end: { outptu: "done" } };
}

function respond(ctx, req) {
  return { Respond: { text: "cached" } };
}

module.exports.beforeModelRequest = request;
exports["afterModelResponse"] = (ctx, resp) => ({ text: resp.text, continu: "go on" });

exports.beforeRun = (ctx) => {
  const out = { State: { n: 0 } };
  return out;
};
