// node --test: the addon's sum of 0..9.
const test = require("node:test");
const assert = require("node:assert");
const addon = require("./build/Release/overflow.node");

test("sum", () => {
  assert.strictEqual(addon.sum(10), 45);
});
