/** @jsxRuntime automatic @jsxImportSource hono/jsx */
import type { Pitch } from '@vp/contracts';
import { formatDuration } from '@vp/net';

/** The pitch as people read it: title, summary, and each shot with its timing, visual, on-screen text and voiceover. */
export function PitchView({ pitch }: { pitch: Pitch }) {
  let start = 0;
  const shots = pitch.shots.map((shot) => {
    const from = start;
    start += shot.durationMs;
    return { shot, from, to: start };
  });
  return (
    <section class="card" aria-labelledby="pitch-title">
      <p class="muted">Pitch, version {pitch.version}</p>
      <h2 id="pitch-title">{pitch.title}</h2>
      <p>{pitch.summary}</p>
      {pitch.verdict === 'skip' ? <p class="notice problem">The writer suggests no video: {pitch.verdictReason ?? 'no reason given.'}</p> : null}
      <ol class="shots">
        {shots.map(({ shot, from, to }) => (
          <li class="shot">
            {shot.previewUrl ? <img src={shot.previewUrl} alt={`Storyboard still of shot ${shot.index + 1}: ${shot.title}`} width={320} height={180} loading="lazy" /> : null}
            <div>
              <h3>{shot.title} <span class="muted">{formatDuration(from)}–{formatDuration(to)}</span></h3>
              <dl class="pairs">
                <dt>Visual</dt><dd>{shot.visual}</dd>
                {shot.text ? <><dt>On screen</dt><dd>{shot.text}</dd></> : null}
                {shot.voiceover ? <><dt>Voiceover</dt><dd>{shot.voiceover}</dd></> : null}
              </dl>
            </div>
          </li>
        ))}
      </ol>
      {pitch.music ? <p class="muted">Music: {pitch.music}</p> : null}
    </section>
  );
}
