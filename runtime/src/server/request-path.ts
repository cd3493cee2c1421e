/** A request URL's path without its query: `/api/reasoning_engine?key=1` is `/api/reasoning_engine`. */
export function requestPath(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
