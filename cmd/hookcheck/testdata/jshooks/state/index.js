// State a fresh runtime resets at every call.
let count = 0;
const seen = new Set();
const limits = { max: 3 };

exports.beforeToolExecute = (ctx, call) => {
  count++;
  seen.add(call.name);
  limits.max = 4;
  globalThis.last = call.name;
  leaked = call.name;
  let local = 0;
  local++;
  const mine = [];
  mine.push(1);
  if (count > limits.max) {
    return { allow: false, reason: "too many" };
  }
  return null;
};
