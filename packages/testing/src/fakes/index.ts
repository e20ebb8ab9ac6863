// Local HTTP fakes of the hosted models, in an entry of their own: loading OpenAI's published
// document is only for the tests that talk to them, not for every test that imports @prodshot/testing.
export { fakeServer, sendJson, type Handler, type Recorded } from './fake-server.js';
export {
  apiError,
  chatCompletion,
  imagesResponse,
  imagesUrlResponse,
  openAIFake,
  type Answer,
  type OpenAICall,
} from './openai-fake.js';
