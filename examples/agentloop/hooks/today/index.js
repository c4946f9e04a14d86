// today tells the model the date, on every turn: a system prompt set by a
// hook lasts one call, so the model always sees the current date.
module.exports = {
  beforeModelRequest(ctx, request) {
    const today = ctx.system.now().toISOString().slice(0, 10);
    ctx.log("adds the date " + today + " to the system prompt");
    return { system: request.system + " Today is " + today + "." };
  },
};
