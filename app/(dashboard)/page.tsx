import type { Metadata } from "next";
import { ProjectsOverview } from "@/components/projects/projects-overview";

export const metadata: Metadata = { title: "Projects" };

const HomePage = () => <ProjectsOverview />;

export default HomePage;
