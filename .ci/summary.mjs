// Sums what .ci/run ran: every vitest JSON report in the results folder, every JUnit XML report
// (pytest's), and the checks that are not test runs (checks.txt: "pass NAME" / "fail NAME"). Prints the failures (with
// the first line of each vitest failure's message), then ONE plain
// last line, `N passed, N failed`; exits 1 when anything failed or nothing ran.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

const [dir = '.', failedSteps = '0'] = process.argv.slice(2)
let passed = 0
let failed = 0
const failures = []
for (const name of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
  const report = JSON.parse(readFileSync(join(dir, name), 'utf8'))
  passed += report.numPassedTests
  failed += report.numFailedTests
  console.log(`${name.replace(/\.json$/, '')}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`)
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      // The failure's first line goes with its name: CI's tail is often all that is seen of a run.
      const why = (test.failureMessages?.[0] ?? '').replace(/\x1b\[[0-9;]*m/g, '').split('\n')[0].slice(0, 240)
      if (test.status === 'failed') failures.push(`${name}: ${test.fullName}${why ? `\n    ${why}` : ''}`)
    }
  }
}
for (const name of readdirSync(dir).filter((f) => f.endsWith('.xml')).sort()) {
  const xml = readFileSync(join(dir, name), 'utf8')
  let ran = 0
  let bad = 0
  for (const [, attributes = ''] of xml.matchAll(/<testsuite\b([^>]*)>/g)) {
    const count = (key) => Number(new RegExp(`\\b${key}="(\\d+)"`).exec(attributes)?.[1] ?? 0)
    ran += count('tests') - count('skipped')
    bad += count('failures') + count('errors')
  }
  for (const [, attributes = '', body = ''] of xml.matchAll(/<testcase\b([^>]*[^/])>([\s\S]*?)<\/testcase>/g)) {
    if (/<(?:failure|error)\b/.test(body)) failures.push(`${name}: ${/\bname="([^"]*)"/.exec(attributes)?.[1] ?? '?'}`)
  }
  passed += ran - bad
  failed += bad
  console.log(`${name.replace(/\.xml$/, '')}: ${ran - bad} passed, ${bad} failed`)
}
for (const line of readFileSync(join(dir, 'checks.txt'), 'utf8').split('\n').filter(Boolean)) {
  const [verdict, ...rest] = line.split(' ')
  if (verdict === 'pass') passed += 1
  else {
    failed += 1
    failures.push(rest.join(' '))
  }
}
for (const failure of failures) console.log(`FAILED ${failure}`)
const steps = Number(failedSteps)
if (steps > 0 && failed === 0) console.log(`${steps} step(s) failed without a failed test (see above)`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 || steps > 0 || passed === 0 ? 1 : 0)
