// A hook with one good export and two mistakes.
module.exports = {
  beforeToolExecution: function (ctx, call) {}, // a typo: not a point
  afterRun: "not a function",
  afterToolExecute: function (ctx, call, result) {
    return { text: result.text + " (checked)" };
  },
};
