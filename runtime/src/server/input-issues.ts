/** Validation issues of an input (or a result) as the one message a 400 (or a 500) carries. */
/** Validation issues as one message: the first five, each with the path of the field (`root` for the value itself). */
export function describeIssues(issues: ReadonlyArray<{ readonly path: ReadonlyArray<PropertyKey>; readonly message: string }>, root = '(input)'): string {
  const shown = issues.slice(0, 5).map((issue) => {
    const where = issue.path.length === 0 ? root : issue.path.map(String).join('.');
    return `${where}: ${issue.message}`;
  });
  if (issues.length > shown.length) shown.push(`and ${issues.length - shown.length} more`);
  return shown.join('; ');
}
