import Link from "next/link";

export default function NotFound() {
  return (
    <div className="panel">
      <h1>Not found</h1>
      <p>
        Nothing lives at this address. Go to the <Link href="/">overview</Link> or the{" "}
        <Link href="/runs">runs</Link>.
      </p>
    </div>
  );
}
