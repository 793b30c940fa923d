// Every jest config's reporters: jest's own, with the "Summary of all failing tests" printed after
// every run. Jest prints it only past 20 test files by default, so a CI log cut to its last lines
// (the queue suite's two files, 2026-11-28) said "1 failed" without naming the test.
module.exports = [['default', { summaryThreshold: 0 }]];
