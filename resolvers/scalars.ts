import {
  DateResolver,
  DateTimeResolver,
  EmailAddressResolver,
  JSONObjectResolver,
  URLResolver,
  UUIDResolver,
} from 'graphql-scalars';

export const scalarResolvers = {
  UUID: UUIDResolver,
  Date: DateResolver,
  DateTime: DateTimeResolver,
  URL: URLResolver,
  EmailAddress: EmailAddressResolver,
  JSONObject: JSONObjectResolver,
};
