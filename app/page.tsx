import { ProjectList } from "@/components/projects/project-list";

const HomePage = () => <ProjectList />;

export default HomePage;
