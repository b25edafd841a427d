import { createRoot } from "react-dom/client";

createRoot(document.getElementById("root")!).render(<h1>Paddock</h1>);
