// Training examples written by the Townbeat project (issue 12), not real events: the labelled real
// data (../shared/fixtures/labelled) holds almost no cooking, baking or tasting classes (one virtual
// cooking class in the unlabelled pool), so the model never learned that a class about food is
// Food and not a craft. Each row is invented and labelled by the project with the fixtures
// README's boundaries (Food: cooking classes, tastings; Arts: visual art and crafts), marked
// `basis: 'project'` and source PROJECT_SOURCE, so code and reports can tell them from real data.
// Classes of the other categories are there too, so that the format words ("class", "workshop",
// "for beginners", "kids", "take home") stay neutral and the topic decides.
//
// How training uses them (train.ts, `projectExamples`): they join every training side, each with
// weight `projectWeight`, without the lexicon features (the lexicon and these rows come from the
// same hands, so they may not vouch for each other), and they change neither the source and class
// balance of the real rows nor the prior a feed is adapted from. The "classes and workshops"
// evaluation set (class-workshop-cases.ts) is written separately and shares no title with them
// (the training script checks).

import type { Row } from './data.ts';
import type { Category } from './features.ts';

/** The source name of project-written rows: never the name of a real source. */
export const PROJECT_SOURCE = 'townbeat-project-written';

type Example = [title: string, description?: string];

const FOOD: Example[] = [
  ['Learn to Make Fresh Egg Pasta', 'Roll the dough by hand and cut pappardelle and farfalle; dinner is what we cook.'],
  ['Gnocchi Night', 'Potato gnocchi with brown butter and sage, made and eaten together.'],
  ['Handmade Noodle Class', 'Pull and cut wheat noodles and cook a bowl of dan dan mian.'],
  ['Potsticker and Bao Workshop', 'Pleat potstickers and steam fluffy bao buns with two fillings.'],
  ['Weekend Bread Baking Course', 'Two mornings on yeast, kneading, proving and baking a loaf and a focaccia.'],
  ['Rustic Loaves for Beginners', 'Mix, shape and score a country loaf; flour and a proofing basket provided.'],
  ['Croissant Lamination Class', 'Make laminated dough and bake croissants and danishes in the school kitchen.'],
  ['Viennoiserie and Pastry Techniques', 'Puff pastry, choux and pastry cream for keen home bakers.'],
  ['Layer Cake Baking and Frosting', 'Bake sponges, level them and frost a three-layer cake with buttercream.'],
  ['Scones and Shortbread Afternoon', 'Bake a tray of scones and shortbread, with tea and jam to finish.'],
  ['Cinnamon Roll Baking Class'],
  ['Tamale Making with Abuela Rosa', 'Masa, two fillings and folding the husks, then steaming a batch to share.'],
  ['Vietnamese Spring Rolls and Pho', 'Roll fresh spring rolls and simmer a fragrant pho broth.'],
  ['Maki Rolling Class for Families', 'Rice, nori and fillings: kids and grown-ups roll their own sushi.'],
  ['Korean Home Cooking: Bibimbap', 'Cook the rice, the vegetables and the gochujang sauce and build your bowl.'],
  ['Middle Eastern Mezze Cooking Class', 'Hummus, falafel, tabbouleh and flatbread from scratch.'],
  ['Paella Cooking Demo', 'Our chef cooks a large seafood paella and shares the recipe.'],
  ['Basic Knife Skills and Kitchen Safety', 'How to hold, sharpen and use a chef knife; chopping onions without tears.'],
  ['Cooking for One: Quick Weeknight Dinners', 'Three easy recipes and a shopping list that wastes nothing.'],
  ['Teen Chef Camp', 'A week of cooking lunches, baking desserts and learning kitchen basics.'],
  ['Natural Wine Tasting', 'Taste six low-intervention wines and learn how they are made.'],
  ['Bourbon Tasting Night', 'Four bourbons neat and one cocktail, with notes from the distiller.'],
  ['Belgian Beer Tasting', 'Dubbels, tripels and saisons, with a talk on the abbeys and the yeasts.'],
  ['Single-Origin Coffee Tasting', 'Compare beans from three farms brewed three ways at the roastery.'],
  ['Specialty Tea Tasting', 'Green, white and black teas brewed by our tea master, with small sweets.'],
  ['Dark Chocolate and Wine Pairing', 'Five chocolates paired with five wines; discover which flavours meet.'],
  ['Cheese and Charcuterie Board Workshop', 'Choose, slice and arrange cheeses, cured meats and pickles into a board to take home.'],
  ['Mixology Class: Tiki Cocktails', 'Shake three rum cocktails with fresh juices and homemade syrups.'],
  ['Home Espresso Workshop', 'Grind, dose and tamp; pull balanced shots and steam silky milk.'],
  ['Kombucha and Fermented Drinks', 'Brew kombucha and water kefir and bottle them with fruit.'],
  ['Pickling and Preserving the Harvest', 'Quick pickles, fridge jams and chutney from market vegetables.'],
  ['Sausage Making Class', 'Grind, season and stuff fresh sausages with our butcher.'],
  ['Fresh Cheese at Home: Paneer and Labneh'],
  ['Vegan Baking: Cakes and Cookies', 'Egg-free and dairy-free cakes and cookies that hold together.'],
  ['Cupcake Decorating Party for Kids', 'Pipe frosting, add sprinkles and take a box of cupcakes home.'],
  ['Holiday Pie Baking Workshop', 'Make a flaky crust and bake a pumpkin pie and a pecan pie.'],
  ['Grilling Masterclass', 'Fire management, marinades and a full menu cooked over charcoal.'],
  ['Oaxacan Mole Cooking Class', 'Toast chiles, grind spices and simmer a mole negro to serve with chicken.'],
  ['Kochkurs: Vegetarische Küche', 'Gemeinsam kochen wir drei vegetarische Gerichte und essen zusammen.'],
  ['Cours de cuisine : les bases de la pâtisserie', 'Pâte brisée, crème anglaise et tarte aux pommes.'],
  ['Clase de cocina: tapas españolas', 'Tortilla de patatas, croquetas y pan con tomate.'],
  ['Kookworkshop: Indonesische rijsttafel'],
];

const ARTS: Example[] = [
  ['Beginner Pottery Wheel Class', 'Wedge clay, center it on the wheel and throw bowls; pieces are fired and glazed.'],
  ['Handbuilt Ceramics: Planters and Vases', 'Slab and coil building in stoneware; firing included.'],
  ['Raku Firing Day', 'Glaze your bisque pieces and watch them come out of the kiln glowing.'],
  ['Watercolor Basics: Flowers and Leaves', 'Brushes, washes and layering; all paints and paper included.'],
  ['Oil Painting Weekend Intensive', 'Two days of painting a landscape in oils, from underpainting to glazes.'],
  ['Acrylic Painting for Beginners', 'Paint a colourful still life on canvas step by step.'],
  ['Paint Night at the Brewery', 'An artist guides everyone through painting a mountain scene; beer available at the bar.'],
  ['Wine and Watercolor Evening', 'Paint a vineyard landscape in watercolour with a glass of wine in hand.'],
  ['Portrait Drawing Workshop', 'Proportions of the face and shading in graphite.'],
  ['Botanical Illustration Class', 'Draw and paint plants from life with pencil and watercolour.'],
  ['Open Figure Drawing', 'Untutored drawing from a live model; bring your own materials.'],
  ['Sketching in the Museum', 'Draw sculptures and paintings in the galleries with a local artist.'],
  ['Block Printing on Fabric', 'Carve a stamp and print a pattern on tea towels and napkins.'],
  ['Intro to Screenprinting', 'Coat a screen, expose a design and print posters in two colours.'],
  ['Etching and Intaglio Workshop', 'Draw into a plate, ink it and print it on the etching press.'],
  ['Hand Lettering and Brush Calligraphy', 'Letterforms with brush pens for cards and signs.'],
  ['Silver Ring Making Workshop', 'Saw, file, solder and polish a ring of your own design.'],
  ['Beaded Earrings Craft Night'],
  ['Beginner Knitting: Your First Scarf', 'Cast on, knit and purl, and cast off a simple scarf.'],
  ['Crochet Amigurumi Animals', 'Crochet a small stuffed animal with yarn and a hook.'],
  ['Sashiko Mending Workshop', 'Japanese running stitch to mend and decorate denim.'],
  ['Learn to Sew a Skirt', 'Use a pattern, cut fabric and sew an elastic-waist skirt on a machine.'],
  ['Fused Glass Coasters', 'Cut and arrange coloured glass; we fire the coasters in the kiln.'],
  ['Tapestry Weaving for Beginners', 'Warp a loom and weave shapes and textures with wool.'],
  ['Papercut Art Workshop', 'Cut intricate paper designs with a craft knife.'],
  ['Mixed Media Art Journaling', 'Collage, paint and ink in an art journal.'],
  ['Kids Craft Club: Paper Mache Masks'],
  ['Clay Sculpture for Teens', 'Model figures in air-dry clay and paint them.'],
  ['Photography Basics: Shooting in Manual', 'Aperture, shutter speed and ISO on a walk with your camera.'],
  ['Malkurs: Acryl auf Leinwand', 'Wir malen gemeinsam ein Bild in Acryl.'],
  ['Atelier aquarelle pour débutants', 'Techniques de base de la peinture à l’aquarelle.'],
  ['Clase de dibujo al natural'],
  ['Candle Making Workshop', 'Pour soy wax candles in jars with scents and wicks to take home.'],
];

/** Classes and workshops of the other categories: the format is not the topic. */
const OTHERS: Array<[Category, ...Example]> = [
  ['Sports', 'Learn to Swim: Adult Beginners', 'Floating, breathing and freestyle basics in the shallow end.'],
  ['Sports', 'Kids Soccer Skills Class', 'Dribbling, passing and small-sided games for ages 6 to 9.'],
  ['Sports', 'Intro to Bouldering Workshop', 'Footwork and falling safely on the climbing wall; shoes provided.'],
  ['Sports', 'Beginner Tennis Clinic', 'Grips, forehand and backhand with a coach; rackets available.'],
  ['Sports', 'Strength Training Basics', 'Learn squats, deadlifts and presses with good form in the weight room.'],
  ['Wellness', 'Yoga for Beginners Workshop', 'Basic poses, breathing and how to use blocks and straps.'],
  ['Wellness', 'Meditation Class: Finding Calm', 'Guided sitting practice and tips to take home for a daily routine.'],
  ['Wellness', 'Stress Management Workshop', 'Practical tools for sleep, worry and burnout with a licensed counselor.'],
  ['Wellness', 'Pilates Mat Class for Beginners'],
  ['Tech', 'Coding Workshop for Kids', 'Make a simple game in Scratch; laptops are provided.'],
  ['Tech', 'Hands-On Soldering Class', 'Solder a blinking LED kit and take it home.'],
  ['Tech', 'Intro to 3D Printing', 'Design a keychain and print it on the makerspace printers.'],
  ['Tech', 'Learn Spreadsheets: Beginner Class', 'Formulas, charts and sorting data on a computer.'],
  ['Tech', 'Build Your First Website', 'HTML and CSS basics in a hands-on evening workshop.'],
  ['Business', 'Resume Writing Workshop', 'Make your resume stand out to employers; bring a printed copy.'],
  ['Business', 'Small Business Bookkeeping Class', 'Track income and expenses and prepare for tax season.'],
  ['Business', 'Marketing Basics for Makers', 'Pricing, social media and selling your work online.'],
  ['Business', 'Interview Skills Class', 'Practise answers and get feedback from hiring managers.'],
  ['Other', 'Spanish Conversation Class for Beginners', 'Practise everyday phrases in small groups.'],
  ['Other', 'Beginner Chess Class', 'Rules, openings and simple tactics; boards provided.'],
  ['Other', 'Citizenship Test Prep Class', 'Review civics questions and practise the interview.'],
  ['Other', 'Kids Gardening Workshop', 'Plant seeds, water seedlings and take home a pot of herbs.'],
  ['Other', 'Local History Workshop: Reading Old Maps'],
];

const row = (label: Category, [title, description = '']: Example, id: string): Row => ({
  id: `project:${id}`,
  title,
  description,
  venue: '',
  label,
  basis: 'project',
  source: PROJECT_SOURCE,
});

/** The project-written training rows: Food and Arts classes, and classes of the other categories. */
export const PROJECT_EXAMPLES: readonly Row[] = [
  ...FOOD.map((e, i) => row('Food', e, `food:${i}`)),
  ...ARTS.map((e, i) => row('Arts', e, `arts:${i}`)),
  ...OTHERS.map(([label, ...e], i) => row(label, e, `other:${i}`)),
];
