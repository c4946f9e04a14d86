// A hook with one good export and three mistakes.
module.exports = {
  beforeToolExecution: function (ctx, call) {}, // a typo: not a point
  afterRun: "not a function",
  beforeTrustDecision: function () {}, // a point, but not one JS hooks have
  afterToolExecute: function (ctx, call, result) {
    return { text: result.text + " (checked)" };
  },
};
