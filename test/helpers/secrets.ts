// Every secret a test handles is registered here; after each test file the captured
// log lines are searched for all of them (test/helpers/setup.ts).
const secrets = new Set<string>();
const logLines: string[] = [];

export function rememberSecret(...values: Array<string | undefined>): void {
  for (const value of values) if (value && value.length >= 8) secrets.add(value);
}

export function captureLogLine(line: string): void {
  logLines.push(line);
}

export function leakedSecrets(): Array<{ secret: string; line: string }> {
  const leaks: Array<{ secret: string; line: string }> = [];
  for (const line of logLines) {
    for (const secret of secrets) if (line.includes(secret)) leaks.push({ secret, line });
  }
  return leaks;
}

export function capturedLogLines(): readonly string[] {
  return logLines;
}
