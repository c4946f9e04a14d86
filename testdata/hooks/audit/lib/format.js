exports.line = (record) => JSON.stringify(record) + "\n";
