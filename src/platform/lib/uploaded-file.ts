// Transport-neutral: the HTTP layer (multipart bodies, GraphQL multipart requests) builds these; resolvers and
// services take them without knowing where they came from.

/** One uploaded file, fully read (uploads are at most 25 MB). The value of the GraphQL `Upload` scalar. */
export class UploadedFile {
  constructor(
    readonly filename: string | null,
    readonly mimetype: string | null,
    readonly bytes: Buffer,
  ) {}
}
