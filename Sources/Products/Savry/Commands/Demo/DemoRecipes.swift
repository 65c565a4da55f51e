import SavryDomain

/// Recipes written for this repository's demo.
enum DemoRecipes {
    static let byUser: [(user: String, recipes: [(slug: String, fields: RecipeFields)])] = [
        ("ana", [
            ("lemon-chickpea-skillet", RecipeFields(
                name: "Lemon Chickpea Skillet", description: "Crispy chickpeas with spinach and a bright lemon finish.",
                ingredients: [i("chickpeas", "2", "cans"), i("baby spinach", "4", "cups"), i("garlic", "3", "cloves"), i("lemon", "1", nil), i("olive oil", "2", "tbsp")],
                instructions: ["Drain and dry the chickpeas.", "Fry them in olive oil until golden, about 8 minutes.", "Add sliced garlic, then the spinach until it wilts.", "Finish with lemon zest and juice."],
                prepTime: 5, cookTime: 15, servings: 3, calories: 380, difficulty: "easy", cuisine: "Mediterranean",
                dietaryTags: ["vegan", "gluten-free"], estimatedCost: 6.5
            )),
            ("tomato-egg-noodles", RecipeFields(
                name: "Tomato Egg Noodles", description: "Soft scrambled eggs in a sweet tomato sauce over noodles.",
                ingredients: [i("wheat noodles", "200", "g"), i("eggs", "3", nil), i("tomatoes", "3", nil), i("spring onions", "2", nil), i("soy sauce", "1", "tbsp")],
                instructions: ["Boil the noodles and drain.", "Scramble the eggs softly and set aside.", "Cook chopped tomatoes until saucy, season with soy sauce.", "Fold in the eggs and serve over the noodles with spring onions."],
                prepTime: 10, cookTime: 12, servings: 2, calories: 520, difficulty: "easy", cuisine: "Chinese", estimatedCost: 4.0
            )),
            ("overnight-oats", RecipeFields(
                name: "Apple Cinnamon Overnight Oats",
                ingredients: [i("rolled oats", "1", "cup"), i("milk", "1", "cup"), i("apple", "1", nil), i("cinnamon", "1", "tsp")],
                instructions: ["Grate the apple.", "Stir everything together in a jar.", "Refrigerate overnight."],
                prepTime: 5, cookTime: 0, servings: 2, calories: 290, difficulty: "easy", dietaryTags: ["vegetarian"]
            )),
            ("roast-squash-soup", RecipeFields(
                name: "Roast Squash Soup", description: "A thick autumn soup; freezes well.",
                ingredients: [i("butternut squash", "1", nil), i("onion", "1", nil), i("vegetable stock", "1", "l"), i("nutmeg", "1", "pinch")],
                instructions: ["Roast the cubed squash at 200 °C for 35 minutes.", "Soften the onion in a pot.", "Add squash and stock, simmer 10 minutes.", "Blend until smooth and season with nutmeg."],
                prepTime: 15, cookTime: 45, servings: 4, calories: 210, difficulty: "medium", cuisine: "British",
                dietaryTags: ["vegan"], estimatedCost: 5.25
            )),
        ]),
        ("ben", [
            ("chili-con-carne", RecipeFields(
                name: "Weeknight Chili", description: "Beef and bean chili that tastes better the next day.",
                ingredients: [i("ground beef", "500", "g"), i("kidney beans", "1", "can"), i("chopped tomatoes", "1", "can"), i("chili powder", "2", "tsp"), i("cumin", "1", "tsp")],
                instructions: ["Brown the beef in a heavy pot.", "Add the spices and cook for a minute.", "Add tomatoes and beans, simmer 30 minutes."],
                prepTime: 10, cookTime: 40, servings: 4, calories: 610, difficulty: "easy", cuisine: "Tex-Mex", estimatedCost: 11.0
            )),
            ("fish-tacos", RecipeFields(
                name: "Crispy Fish Tacos",
                ingredients: [i("white fish fillets", "400", "g"), i("corn tortillas", "8", nil), i("red cabbage", "0.25", "head"), i("lime", "2", nil), i("sour cream", "4", "tbsp")],
                instructions: ["Shred the cabbage and dress it with lime.", "Pan-fry the fish until it flakes.", "Warm the tortillas and fill with fish, slaw and sour cream."],
                prepTime: 15, cookTime: 10, servings: 4, calories: 450, difficulty: "medium", cuisine: "Mexican", estimatedCost: 14.75
            )),
            ("garlic-butter-rice", RecipeFields(
                name: "Garlic Butter Rice",
                ingredients: [i("long-grain rice", "1.5", "cups"), i("butter", "2", "tbsp"), i("garlic", "4", "cloves")],
                instructions: ["Melt the butter and fry the garlic gently.", "Stir in the rice, then add 3 cups of water.", "Cover and simmer 15 minutes; rest 5."],
                prepTime: 2, cookTime: 20, servings: 4, difficulty: "easy", dietaryTags: ["vegetarian", "gluten-free"]
            )),
            ("banana-pancakes", RecipeFields(
                name: "Two-Ingredient Banana Pancakes", description: "Just banana and egg; add cinnamon if you like.",
                ingredients: [i("ripe banana", "1", nil), i("eggs", "2", nil)],
                instructions: ["Mash the banana and whisk in the eggs.", "Cook small pancakes over low heat, 2 minutes a side."],
                prepTime: 3, cookTime: 8, servings: 1, calories: 250, difficulty: "easy", dietaryTags: ["gluten-free"], estimatedCost: 1.2
            )),
        ]),
        ("chloe", [
            ("miso-salmon", RecipeFields(
                name: "Miso Glazed Salmon",
                ingredients: [i("salmon fillets", "2", nil), i("white miso", "2", "tbsp"), i("honey", "1", "tbsp"), i("rice vinegar", "1", "tsp")],
                instructions: ["Mix miso, honey and vinegar.", "Brush over the salmon.", "Grill 8 minutes until caramelised."],
                prepTime: 5, cookTime: 8, servings: 2, calories: 420, difficulty: "easy", cuisine: "Japanese", estimatedCost: 13.0
            )),
            ("shakshuka", RecipeFields(
                name: "Shakshuka", description: "Eggs poached in spiced peppers and tomatoes.",
                ingredients: [i("eggs", "4", nil), i("red peppers", "2", nil), i("chopped tomatoes", "1", "can"), i("paprika", "1", "tsp"), i("feta", "50", "g")],
                instructions: ["Soften sliced peppers in oil.", "Add paprika and tomatoes, simmer 10 minutes.", "Make four wells and crack in the eggs.", "Cover until the whites set; crumble over the feta."],
                prepTime: 10, cookTime: 20, servings: 2, calories: 390, difficulty: "medium", cuisine: "North African",
                dietaryTags: ["vegetarian"], estimatedCost: 7.8
            )),
            ("pesto-pasta-salad", RecipeFields(
                name: "Pesto Pasta Salad",
                ingredients: [i("fusilli", "300", "g"), i("basil pesto", "4", "tbsp"), i("cherry tomatoes", "200", "g"), i("mozzarella pearls", "125", "g")],
                instructions: ["Cook the pasta and cool it under running water.", "Toss with pesto, halved tomatoes and mozzarella."],
                prepTime: 10, cookTime: 10, servings: 4, calories: 480, difficulty: "easy", cuisine: "Italian", dietaryTags: ["vegetarian"]
            )),
            ("chocolate-mug-cake", RecipeFields(
                name: "Chocolate Mug Cake", description: "Dessert in three minutes.",
                ingredients: [i("flour", "4", "tbsp"), i("cocoa powder", "2", "tbsp"), i("sugar", "3", "tbsp"), i("milk", "3", "tbsp"), i("vegetable oil", "2", "tbsp")],
                instructions: ["Whisk everything in a large mug.", "Microwave 70–90 seconds."],
                prepTime: 2, cookTime: 2, servings: 1, calories: 540, difficulty: "easy", dietaryTags: ["vegetarian"], estimatedCost: 0.9
            )),
        ]),
    ]

    private static func i(_ name: String, _ quantity: String, _ unit: String?) -> RecipeIngredient {
        RecipeIngredient(name: name, quantity: quantity, unit: unit)
    }
}
