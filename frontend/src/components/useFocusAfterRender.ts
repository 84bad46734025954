// Moves the focus to an element once the render that follows has reached the page: focusing
// in the event handler itself would land before the error (aria-invalid, the message) exists,
// so a screen reader would read the field without it.
import { useEffect, useState } from "react";

export function useFocusAfterRender(): (id: string) => void {
  const [request, setRequest] = useState<{ id: string } | null>(null);
  useEffect(() => {
    if (request) document.getElementById(request.id)?.focus();
  }, [request]);
  // A new object each time: asking twice for the same element focuses it twice.
  return (id: string) => setRequest({ id });
}
