//! `/dashboard/guide`: how to use the product, in plain words: capturing evidence, offline capture
//! and the later upload, storage dates and expiry, rental captures, and what the integrity check
//! (SHA-256) proves.
import type { ReactNode } from 'react';
import { Link } from 'react-router';

interface Topic {
  id: string;
  title: string;
  body: ReactNode;
}

const TOPICS: Topic[] = [
  {
    id: 'capture',
    title: 'Capturing evidence',
    body: (
      <>
        <p>
          Open <Link to="/evidence">Capture Evidence</Link> and take a photo, record a video or record an audio note with your phone’s
          camera and microphone. Every capture goes into a folder, with the time your device took it and, when you allow location
          access, the place: its coordinates, the nearest city and an address.
        </p>
        <ul>
          <li>Allow the camera, the microphone and your location when the browser asks. If you said no, the app shows how to switch location back on.</li>
          <li>Keep the phone steady and film in good light; move in close on details and hold for a moment.</li>
          <li>Each upload shows a progress bar with the time left. ‘Uploaded’ means the file arrived; ‘Error’ offers a retake.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'offline',
    title: 'Capturing offline and uploading later',
    body: (
      <>
        <p>
          You can capture without a connection. A red banner says you are offline; your captures wait on this device, and stay there
          even if you close or reload the page.
        </p>
        <ul>
          <li>When you are back online, the banner says ‘You have an unfinished process.’ Tap Continue to send the waiting files.</li>
          <li>A long video that stops half-way resumes where it stopped; the parts already sent are not sent again.</li>
          <li>Until a file shows ‘Uploaded’, it exists only on this device: do not clear the browser’s data for this site before then.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'storage',
    title: 'Storage dates and expiry',
    body: (
      <>
        <p>
          Every folder is kept until its storage date, which you can see on the folder in My Files. You can extend it before or after it
          passes.
        </p>
        <ul>
          <li>Shortly before the date, the folder’s files are tagged ‘EXPIRES SOON’ with the date.</li>
          <li>
            After the date, files are tagged ‘Expired’: they cannot be opened, downloaded or shared (‘Please extend your Storage Date for
            this file.’), and the folder takes no new captures until its date is extended.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'rental',
    title: 'Rental captures',
    body: (
      <>
        <p>
          Renting a vehicle or staying in a hotel? Record its condition when you receive it and again when you give it back, so any
          disagreement about damage can be settled with dated evidence.
        </p>
        <ul>
          <li>
            <Link to="/vehicle-rental">Vehicle Rental</Link>: choose Pick-up or Return and the vehicle (Car, SUV, Watercraft, Trailer,
            Truck). The capture walks you through the body (photos of the front, rear and both sides, plus close-ups of any damage), the
            interior (one video, best kept under 90 seconds), the mileage and the fuel (short videos of the odometer and the fuel gauge).
          </li>
          <li>
            <Link to="/hotel-rental">Hotel Rental</Link>: at check-in and check-out, photograph the room, bathroom, bed, furniture,
            appliances and any damage; a walk-through video of the room is optional.
          </li>
          <li>A Return (or check-out) is linked to its Pick-up (check-in): ‘Compare with Pick-up’ shows both, section by section, with their capture times.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'integrity',
    title: 'What the integrity check means',
    body: (
      <>
        <p>
          When you capture a file, your device computes its SHA-256 fingerprint: a 64-character code that changes completely if even
          one bit of the file changes. After the upload, our service computes the fingerprint of the stored file again and compares
          the two, together with the size.
        </p>
        <ul>
          <li>If they match, the file is marked verified: what we store is exactly what your device captured.</li>
          <li>If they differ, the file is rejected with the reason, and you are asked to take it again.</li>
          <li>
            The fingerprint shows the file was not altered after capture. It does not by itself prove what the picture shows; the
            capture time and place recorded with it help with that.
          </li>
        </ul>
      </>
    ),
  },
];

export function GuidePage() {
  return (
    <main className="page guide">
      <h1>Guide</h1>
      <nav aria-label="Guide topics">
        <ul className="guide__toc">
          {TOPICS.map((t) => (
            <li key={t.id}>
              <a href={`#guide-${t.id}`}>{t.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      {TOPICS.map((t) => (
        <section key={t.id} id={`guide-${t.id}`} className="card guide__topic" aria-labelledby={`guide-${t.id}-title`}>
          <h2 id={`guide-${t.id}-title`} className="guide__title">
            {t.title}
          </h2>
          {t.body}
        </section>
      ))}
    </main>
  );
}
