//! `/tech-support` (open to anyone): common fixes (camera, microphone and location permissions,
//! offline uploads, the update prompt) and how to reach support.
import { Link } from 'react-router';
import '../info.css';
import { InfoBack } from '../components/InfoBack';

export function TechSupportPage() {
  return (
    <main className="page info-text">
      <InfoBack />
      <h1>Tech Support</h1>
      <p>Most problems have a quick fix. Try these first; if they do not help, write to us.</p>

      <section aria-label="Camera and microphone">
        <h2>The camera or microphone does not start</h2>
        <p>
          The app needs your permission to use the camera for photos and video and the microphone for video and audio. If you said no
          when the browser asked, open the site settings in your browser (the icon next to the address, or Settings › Site settings),
          allow Camera and Microphone for this site, then reload the page. Close other apps that may be using the camera.
        </p>
      </section>

      <section aria-label="Location">
        <h2>The place of a capture is missing</h2>
        <p>
          Captures record where they were taken only when location access is allowed. Allow Location for this site in the browser’s
          site settings. On an iPhone, also turn on Settings › Privacy &amp; Security › Location Services, and allow your browser to use
          your location while using the app.
        </p>
      </section>

      <section aria-label="Offline uploads">
        <h2>I captured without a connection</h2>
        <p>
          Nothing is lost: captures made offline wait on your device and upload when you are back online. When the app says ‘You have an
          unfinished process.’, tap Continue. A large upload that stopped resumes where it stopped. Do not clear the browser’s data for
          this site while files are still waiting.
        </p>
      </section>

      <section aria-label="Updates">
        <h2>The app asks me to update</h2>
        <p>
          When a new version is ready the app says ‘A new version of Evidentia is available.’ Finish what you are doing, then tap
          Update: the page reloads with the new version. Later hides the message until the next time. Captures waiting to upload are
          kept.
        </p>
      </section>

      <section aria-label="Still stuck">
        <h2>Still stuck?</h2>
        <p>
          Read the <Link to="/faq">FAQ</Link>, or <Link to="/contact-us">Contact Us</Link>: tell us what you did, what you expected, and
          your phone and browser. We reply by e-mail.
        </p>
      </section>
    </main>
  );
}
