module.exports = {
  beforeToolExecute: function (ctx, call) {
    return { allow: false, reason: "no" ;
  },
};
