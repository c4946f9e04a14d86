// audit appends one JSON line per tool call and per run end to audit.log
// in the workdir, through ctx.file.
const { line } = require("./lib/format");

exports.afterToolExecute = (ctx, call, result) => {
  ctx.file.append("audit.log", line({ run: ctx.session.id, tool: call.name, error: result.isError }));
};

exports.afterRun = (ctx, event) => {
  ctx.file.append("audit.log", line({ run: ctx.session.id, outcome: event.outcome }));
};
