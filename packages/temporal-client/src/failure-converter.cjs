// The failure converter of every client and worker (a plain CommonJS file: Temporal loads it by
// path, with `require`, in workers, clients and the workflow bundle alike). A failure's message
// and stack go into its encoded attributes, so that the payload codec encrypts them too: a
// failure's words may quote a brief (a media address) or name a person.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with require, by path
const { DefaultFailureConverter } = require('@temporalio/common');

exports.failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
