// Reading Gatehouse's one error shape in tests: { error, message, details: [{ path, message }] }.

/** The fields a 4xx names (its `details[].path`), sorted, to compare with the paths a case expects. */
export const errorPaths = (body: { details: { path: string }[] }): string[] => body.details.map((d) => d.path).sort();
