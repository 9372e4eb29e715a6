// Word lists the rule-based extractor classifies with: technologies (with canonical ids),
// cue words, organisation suffixes, a small gazetteer of places, and words that are never names.

export interface Tech {
  name: string;
  id: string;
  /** Regex alternatives (source text) matched as whole words. */
  aliases: string;
  /** Match only with this exact capitalisation and not as a sentence's first word ("Go", "Rust", "React"…). */
  strict?: boolean;
}

const t = (name: string, id: string, aliases: string, strict = false): Tech => ({ name, id, aliases, strict });

export const TECHNOLOGIES: Tech[] = [
  t("TypeScript", "typescript", "typescript|ts"),
  t("JavaScript", "javascript", "javascript|js|ecmascript"),
  t("Python", "python", "python|python3"),
  t("Go", "go", "Go|Golang|golang", true),
  t("Rust", "rust", "Rust", true),
  t("Java", "java", "Java", true),
  t("Kotlin", "kotlin", "kotlin"),
  t("Swift", "swift", "Swift", true),
  t("C++", "cpp", "c\\+\\+|cpp"),
  t("C#", "csharp", "c#|csharp"),
  t("Ruby", "ruby", "Ruby", true),
  t("PHP", "php", "php"),
  t("Elixir", "elixir", "elixir"),
  t("Haskell", "haskell", "haskell"),
  t("Scala", "scala", "scala"),
  t("SQL", "sql", "SQL", true),
  t("PostgreSQL", "postgresql", "postgresql|postgres|psql"),
  t("MySQL", "mysql", "mysql"),
  t("SQLite", "sqlite", "sqlite|sqlite3"),
  t("MongoDB", "mongodb", "mongodb|mongo"),
  t("Redis", "redis", "redis"),
  t("Neo4j", "neo4j", "neo4j"),
  t("Elasticsearch", "elasticsearch", "elasticsearch"),
  t("Kafka", "kafka", "kafka"),
  t("GraphQL", "graphql", "graphql"),
  t("React", "react", "React|ReactJS|React\\.js", true),
  t("Vue", "vue", "Vue|Vue\\.js|vuejs", true),
  t("Angular", "angular", "Angular", true),
  t("Svelte", "svelte", "svelte|sveltekit"),
  t("Next.js", "nextjs", "next\\.js|nextjs"),
  t("Node.js", "nodejs", "node\\.js|nodejs"),
  t("Node.js", "nodejs", "Node", true),
  t("Deno", "deno", "deno"),
  t("Bun", "bun", "Bun", true),
  t("Express", "express", "Express\\.js|expressjs"),
  t("Django", "django", "django"),
  t("Flask", "flask", "Flask", true),
  t("FastAPI", "fastapi", "fastapi"),
  t("Ruby on Rails", "rails", "ruby on rails|Rails", true),
  t("Spring", "spring", "Spring Boot|springboot"),
  t("Tailwind CSS", "tailwind", "tailwind|tailwindcss"),
  t("Docker", "docker", "docker"),
  t("Kubernetes", "kubernetes", "kubernetes|k8s"),
  t("Terraform", "terraform", "terraform"),
  t("AWS", "aws", "aws|amazon web services"),
  t("Google Cloud", "gcp", "gcp|google cloud"),
  t("Azure", "azure", "Azure", true),
  t("Linux", "linux", "linux|ubuntu|debian"),
  t("macOS", "macos", "macos|os x"),
  t("Windows", "windows", "Windows", true),
  t("Git", "git", "git"),
  t("GitHub", "github", "github"),
  t("GitLab", "gitlab", "gitlab"),
  t("VS Code", "vscode", "vs ?code|visual studio code"),
  t("Vim", "vim", "vim|neovim|nvim"),
  t("Emacs", "emacs", "emacs"),
  t("PyTorch", "pytorch", "pytorch"),
  t("TensorFlow", "tensorflow", "tensorflow"),
  t("NumPy", "numpy", "numpy"),
  t("Jupyter", "jupyter", "jupyter"),
  t("Figma", "figma", "figma"),
  t("Slack", "slack", "Slack", true),
  t("Jira", "jira", "jira"),
  t("Notion", "notion", "Notion", true),
  t("Excel", "excel", "Excel", true),
];

export const ORG_SUFFIXES = new Set([
  "Inc",
  "Inc.",
  "Corp",
  "Corp.",
  "Corporation",
  "Ltd",
  "Ltd.",
  "LLC",
  "GmbH",
  "AG",
  "SA",
  "plc",
  "Company",
  "Co.",
  "Labs",
  "Lab",
  "University",
  "College",
  "Institute",
  "Bank",
  "Group",
  "Foundation",
  "Technologies",
  "Systems",
  "Hospital",
  "School",
  "Agency",
  "Studio",
  "Studios",
  "Partners",
  "Capital",
  "Ventures",
  "Airlines",
  "Motors",
]);

/** A deliberately small gazetteer: places people often mention without a cue word. */
export const PLACES = new Set([
  "London",
  "Paris",
  "Berlin",
  "Madrid",
  "Rome",
  "Lisbon",
  "Amsterdam",
  "Brussels",
  "Vienna",
  "Prague",
  "Warsaw",
  "Stockholm",
  "Oslo",
  "Copenhagen",
  "Helsinki",
  "Dublin",
  "Edinburgh",
  "Zurich",
  "Geneva",
  "Munich",
  "Hamburg",
  "Barcelona",
  "Milan",
  "Athens",
  "Istanbul",
  "Moscow",
  "Kyiv",
  "Tokyo",
  "Kyoto",
  "Osaka",
  "Seoul",
  "Beijing",
  "Shanghai",
  "Hong Kong",
  "Singapore",
  "Bangkok",
  "Mumbai",
  "Delhi",
  "Bangalore",
  "Sydney",
  "Melbourne",
  "Auckland",
  "Toronto",
  "Vancouver",
  "Montreal",
  "New York",
  "Boston",
  "Chicago",
  "Seattle",
  "San Francisco",
  "Los Angeles",
  "Austin",
  "Denver",
  "Miami",
  "Mexico City",
  "São Paulo",
  "Buenos Aires",
  "Cairo",
  "Lagos",
  "Nairobi",
  "Cape Town",
  "Dubai",
  "Tel Aviv",
  "France",
  "Germany",
  "Spain",
  "Italy",
  "Portugal",
  "Netherlands",
  "Belgium",
  "Austria",
  "Switzerland",
  "Sweden",
  "Norway",
  "Denmark",
  "Finland",
  "Ireland",
  "Poland",
  "Greece",
  "Turkey",
  "Ukraine",
  "Russia",
  "China",
  "Japan",
  "Korea",
  "India",
  "Australia",
  "New Zealand",
  "Canada",
  "Mexico",
  "Brazil",
  "Argentina",
  "Chile",
  "Egypt",
  "Nigeria",
  "Kenya",
  "England",
  "Scotland",
  "Wales",
  "California",
  "Texas",
  "Florida",
  "Europe",
  "Asia",
  "Africa",
  "USA",
  "UK",
]);

export const PET_SPECIES =
  "dog|cat|puppy|kitten|pet|parrot|hamster|rabbit|bunny|horse|fish|bird|turtle|guinea pig|snake|lizard";

/** Relative → the `relation` property of a KNOWS relationship from the owner. */
export const RELATIVES =
  "wife|husband|partner|spouse|girlfriend|boyfriend|fiancée|fiancé|fiancee|fiance|son|daughter|mother|mom|mum|father|dad|brother|sister|" +
  "grandmother|grandma|grandfather|grandpa|uncle|aunt|cousin|niece|nephew|best friend|friend|boss|manager|colleague|coworker|co-worker|" +
  "roommate|flatmate|neighbor|neighbour|therapist|doctor|teacher|mentor";

export const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** Capitalised words that start no name: pronouns, determiners, time words, weekdays, months. */
export const NOT_NAMES = new Set(
  (
    "I I'm I've I'd I'll Me My Mine We We're Our Ours You Your He She It They Them Their His Her Its This That These Those " +
    "The A An And But Or So Then Also Yes No Not Hi Hello Hey Thanks Thank Please Ok Okay Well Oh Just Maybe " +
    "Today Tomorrow Yesterday Tonight Now Later Soon Last Next Every Each Some Any All Most Many Few " +
    "When Where What Who Why How Which While After Before Since Until During On In At From To For With By Of About As If " +
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday Mon Tue Wed Thu Fri Sat Sun " +
    "January February March April May June July August September October November December " +
    "Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Mr Mrs Ms Dr Prof Sir Madam " +
    "English Spanish French German Italian Chinese Japanese Korean Russian Portuguese Dutch Arabic Hindi"
  ).split(" "),
);

// Cue words around a capitalised name that say what it is; "to" alone is no cue
// ("talked to Alice"), only after a verb of travel.
export const PLACE_BEFORE =
  /\b(?:in|near|visited|visiting|visit|(?:moved|move|moving|went|go|going|flew|fly|flying|trip|travel(?:l?ed)?|travell?ing|drove|drive|driving|headed|heading|relocated|relocating|returned|vacation|holiday)\s+to)\s+$/;
export const ORG_BEFORE = /\b(?:at|joined|joining|join|hired by|acquired by|for the company|interned at|intern at)\s+$/;
export const PERSON_BEFORE =
  /\b(?:with|met|meet|meeting|told|tell|asked|ask|called|call|texted|emailed|thanked|helped|married|dating|dated|(?:talked|talking|spoke|speaking)\s+(?:to|with))\s+$/;
export const PERSON_AFTER =
  /^\s+(?:said|says|told|asked|thinks|thought|wants|wanted|likes|liked|loves|loved|hates|texted|emailed|replied|wrote)\b/;
export const TITLE_BEFORE = /\b(?:Mr|Mrs|Ms|Dr|Prof)\.?\s+$/;
