/**
 * One call of a Google API service (Sessions, Memory Bank, the management API) as its REST
 * binding names it, whichever face it came by: the REST face reads it off the HTTP request, the
 * gRPC face transcodes the proto request by the method's `google.api.http` rule (AIP-127). Each
 * service answers it with one implementation, so the two faces cannot disagree.
 */
export interface ApiRequest {
  readonly version: 'v1' | 'v1beta1';
  /** The HTTP verb of the binding: GET, POST, PATCH, DELETE. */
  readonly method: string;
  /** The path after the version, decoded: `projects/p/locations/l/reasoningEngines/1/sessions`. */
  readonly name: string;
  readonly query: URLSearchParams;
  /** The body, as ProtoJSON; `{}` when the binding has none. */
  readonly body: Record<string, unknown>;
}

/** A service's answer to an ApiRequest (ProtoJSON), or a ServiceError / PublicError thrown. */
export type ApiDispatch = (request: ApiRequest) => Promise<object>;
