// https-only upgrades plain-HTTP URLs before any tool sees them.
module.exports = {
  beforeToolExecute(ctx, call) {
    const url = call.arguments.url;
    if (typeof url !== "string" || !url.startsWith("http://")) return;
    const upgraded = "https://" + url.slice("http://".length);
    ctx.log("rewrites url " + JSON.stringify(url) + " to " + JSON.stringify(upgraded));
    return { arguments: { ...call.arguments, url: upgraded } };
  },
};
