// no-rm-rf, in JavaScript: refuses shell calls whose arguments mention rm -rf.
exports.beforeToolExecute = (ctx, call) => {
  if (call.name === "shell" && JSON.stringify(call.arguments).includes("rm -rf")) {
    return { allow: false, reason: "rm -rf is not allowed" };
  }
};
