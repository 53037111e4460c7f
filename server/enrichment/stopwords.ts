/**
 * Words that never make a keyword: English function words plus the generic verbs, adverbs and nouns of expository
 * prose ("use", "also", "example") that would otherwise top every page's counts. They also split RAKE phrases.
 */
export const STOPWORDS = new Set(
  // function words
  (
    "a about above across after afterwards again against all almost alone along already also although always am " +
    "among amongst an and another any anyhow anyone anything anyway anywhere are around as at be became because " +
    "become becomes becoming been before beforehand behind being below beside besides between beyond both but by " +
    "can cannot could did do does doing done down due during each either else elsewhere enough etc even ever every " +
    "everyone everything everywhere except few for former formerly from further had has have having he hence her " +
    "here hereafter hereby herein hers herself him himself his how however i ie if in indeed into is it its itself " +
    "just latter latterly least less many may me meanwhile might mine more moreover most mostly much must my myself " +
    "namely neither never nevertheless next no nobody none noone nor not nothing now nowhere of off often on once " +
    "one only onto or other others otherwise our ours ourselves out over own per perhaps rather same seem seemed " +
    "seeming seems several she should since so some somehow someone something sometime sometimes somewhere still " +
    "such than that the their theirs them themselves then thence there thereafter thereby therefore therein " +
    "thereupon these they this those though through throughout thru thus to together too toward towards under " +
    "until up upon us very via was we well were what whatever when whence whenever where whereafter whereas whereby " +
    "wherein whereupon wherever whether which while whither who whoever whole whom whose why will with within " +
    "without would yet you your yours yourself yourselves " +
    // contractions and their pieces
    "s t d ll m re ve don doesn didn isn aren wasn weren won wouldn shouldn couldn can't don't it's i'm " +
    // generic verbs, adverbs, adjectives and nouns
    "able according actually add added adds allow allows almost among anyway apply applied appear approach " +
    "based begin began best better big called came case cases certain certainly change changed clearly come comes " +
    "consider considered contain contains containing corresponding currently different directly do e eg " +
    "especially et al example examples fact far find finds first following follows found four gave general get gets " +
    "getting give given gives go goes going good got great high however important include included includes " +
    "including instead keep kind know known large last later like likely little long look low made main make makes " +
    "making mean means much need needs new non note noted number numbers obtain obtained often ok old order " +
    "particular particularly possible present provide provided provides put quite rather really recent recently " +
    "regarding related respectively result results right said say says second see seen set shall show showed shown " +
    "shows significant significantly similar simply small specific still sure take taken takes tell terms third " +
    "three thing things think total true try two type types typically usually use used uses using various " +
    "want way ways whose within work works yes"
  ).split(/\s+/),
);
