import { bodyOf, type ApiClient, type Schemas } from './client.ts';
import { sleep as realSleep, type Sleep } from './sleep.ts';

export type Render = Schemas['Render'];
export type RenderImage = { name: string; data: Blob };
export type CreateRenderOptions = {
  resolution?: Schemas['RenderResolution'];
  background?: 'black' | 'white';
  appName?: string;
  accent?: string;
  /** Hold the request until the video is ready (up to the service's budget, then 202). Default true. */
  wait?: boolean;
};

/** The one-call renders API: 1 to 10 images in, a video out. */
export function rendersApi(api: ApiClient) {
  const get = async (id: string) => (await bodyOf(api.GET('/v1/renders/{id}', { params: { path: { id } } }))).render;
  return {
    async create(images: RenderImage[], options: CreateRenderOptions = {}): Promise<Render> {
      const form = new FormData();
      for (const image of images) form.append('images', image.data, image.name);
      for (const [name, value] of Object.entries({ ...options, wait: String(options.wait ?? true) })) {
        if (value !== undefined) form.append(name, String(value));
      }
      // The typed body is the form's description; the request sends the FormData itself.
      const body = {} as Schemas['CreateRenderForm'];
      return (await bodyOf(api.POST('/v1/renders', { body, bodySerializer: () => form }))).render;
    },
    get,
    /** Reads the render until it is `done` or `failed`, telling `onProgress` each change of status or progress. */
    async waitFor(id: string, options: { onProgress?: (render: Render) => void; signal?: AbortSignal; intervalMs?: number; sleep?: Sleep } = {}): Promise<Render> {
      const { intervalMs = 2000, sleep = realSleep } = options;
      let seen = '';
      for (;;) {
        options.signal?.throwIfAborted();
        const render = await get(id);
        if (`${render.status}:${render.progress}` !== seen) {
          seen = `${render.status}:${render.progress}`;
          options.onProgress?.(render);
        }
        if (render.status === 'done' || render.status === 'failed') return render;
        await sleep(intervalMs, options.signal);
      }
    },
  };
}
