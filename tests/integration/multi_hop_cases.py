"""Multi-hop memory/question cases (zh + en), written by a tester who had not seen the rules.

Each case: (case_id, language, memories, question, accept, reject). Memories are told by the
default speaker ("user"). A case passes when the first sentence of the answer (up to "。" or
". ") contains one accepted word (case-insensitive) and no rejected one. Every case carries
distractor memories: a similar chain about someone/something else, or the answer of a shorter
chain, whose answer is listed in ``reject``.
"""

# ruff: noqa: E501

ZH = [
    # 2-hop, 的-chain about a third person
    (
        "z01",
        "zh",
        [
            "王明的导师是陈刚。",
            "陈刚在复旦大学任教。",
            "赵磊的导师是刘强。",
            "刘强在南京大学任教。",
            "王明在北京大学读书。",
        ],
        "王明的导师在哪所大学任教？",
        ["复旦"],
        ["南京", "北京"],
    ),
    # 3-hop, first-person possessive chain
    (
        "z02",
        "zh",
        ["我老板是周华。", "周华的妻子叫林芳。", "林芳在人民医院工作。", "孙强的妻子叫何丽。", "何丽在中国银行工作。"],
        "我老板的妻子在哪工作？",
        ["人民医院"],
        ["中国银行"],
    ),
    # 2-hop, first-person possessive chain (relative)
    (
        "z03",
        "zh",
        ["我姐姐的丈夫是张涛。", "张涛在华为工作。", "我表姐的丈夫是李军。", "李军在小米工作。"],
        "我姐姐的丈夫在哪家公司工作？",
        ["华为"],
        ["小米"],
    ),
    # 2-hop, relative clause 创立X的人
    (
        "z04",
        "zh",
        ["马化腾创立了腾讯。", "马化腾出生于广东汕头。", "李彦宏创立了百度。", "李彦宏出生于山西阳泉。"],
        "创立腾讯的人出生在哪里？",
        ["汕头"],
        ["阳泉"],
    ),
    # 2-hop, relative clause 生产X的公司
    (
        "z05",
        "zh",
        ["大疆生产无人机。", "大疆的总部在深圳。", "小米生产手机。", "小米的总部在北京。"],
        "生产无人机的公司总部在哪里？",
        ["深圳"],
        ["北京"],
    ),
    # 2-hop, book author
    (
        "z06",
        "zh",
        ["《三体》的作者是刘慈欣。", "刘慈欣住在山西阳泉。", "《活着》的作者是余华。", "余华住在北京。"],
        "《三体》的作者住在哪里？",
        ["阳泉"],
        ["北京"],
    ),
    # 2-hop, pets
    (
        "z07",
        "zh",
        ["我的猫叫咪咪。", "咪咪最喜欢吃鱼干。", "我的狗叫旺财。", "旺财最喜欢吃骨头。"],
        "我的猫最喜欢吃什么？",
        ["鱼干"],
        ["骨头"],
    ),
    # 2-hop, schools
    (
        "z08",
        "zh",
        ["我儿子在实验小学上学。", "实验小学的校长是刘建国。", "我女儿在第一中学上学。", "第一中学的校长是陈志华。"],
        "我儿子学校的校长是谁？",
        ["刘建国"],
        ["陈志华"],
    ),
    # 2-hop, tools, relative clause
    (
        "z09",
        "zh",
        [
            "我用 Jira 管理项目。",
            "Jira 是 Atlassian 公司开发的。",
            "我用 Slack 和同事沟通。",
            "Slack 是 Salesforce 旗下的产品。",
        ],
        "我管理项目用的工具是哪家公司开发的？",
        ["Atlassian"],
        ["Salesforce"],
    ),
    # 3-hop, 的-chain about a third person
    (
        "z10",
        "zh",
        [
            "小陈的经理是赵伟。",
            "赵伟的妻子是孙丽。",
            "孙丽住在成都。",
            "小刘的经理是钱峰。",
            "钱峰的妻子是周敏。",
            "周敏住在重庆。",
        ],
        "小陈的经理的妻子住在哪里？",
        ["成都"],
        ["重庆"],
    ),
    # 2-hop, places
    (
        "z11",
        "zh",
        ["我的母校是中山大学。", "中山大学位于广州。", "我妻子的母校是厦门大学。", "厦门大学位于厦门。"],
        "我的母校在哪个城市？",
        ["广州"],
        ["厦门"],
    ),
    # 2-hop, family + occupation
    (
        "z12",
        "zh",
        ["我弟弟的女朋友叫小美。", "小美是一名护士。", "我哥哥的女朋友叫小红。", "小红是一名教师。"],
        "我弟弟的女朋友是做什么的？",
        ["护士"],
        ["教师"],
    ),
    # 2-hop, company founder + school
    (
        "z13",
        "zh",
        [
            "华为的创始人是任正非。",
            "任正非毕业于重庆大学。",
            "联想的创始人是柳传志。",
            "柳传志毕业于西安电子科技大学。",
        ],
        "华为的创始人毕业于哪所大学？",
        ["重庆大学"],
        ["西安"],
    ),
    # 2-hop, relative clause 写X的作家
    (
        "z14",
        "zh",
        ["余华写了《活着》。", "余华出生在浙江海盐。", "莫言写了《红高粱》。", "莫言出生在山东高密。"],
        "写《活着》的作家出生在哪里？",
        ["海盐"],
        ["高密"],
    ),
    # 3-hop, first-person possessive chain
    (
        "z15",
        "zh",
        [
            "我的室友是小赵。",
            "小赵的女朋友是小林。",
            "小林在阿里巴巴工作。",
            "小周的女朋友是小吴。",
            "小吴在京东工作。",
        ],
        "我室友的女朋友在哪家公司工作？",
        ["阿里"],
        ["京东"],
    ),
    # 2-hop, car brand -> headquarters
    (
        "z16",
        "zh",
        ["我爸爸开比亚迪。", "比亚迪的总部在深圳。", "我叔叔开吉利。", "吉利的总部在杭州。"],
        "我爸爸开的车的厂家总部在哪个城市？",
        ["深圳"],
        ["杭州"],
    ),
    # 2-hop, my company's CEO
    (
        "z17",
        "zh",
        ["我在字节跳动工作。", "字节跳动的CEO是梁汝波。", "我妻子在美团工作。", "美团的CEO是王兴。"],
        "我公司的CEO是谁？",
        ["梁汝波"],
        ["王兴"],
    ),
    # 2-hop, favourite writer -> best-known novel
    (
        "z18",
        "zh",
        [
            "我最喜欢的作家是村上春树。",
            "村上春树最有名的小说是《挪威的森林》。",
            "我朋友最喜欢的作家是东野圭吾。",
            "东野圭吾最有名的小说是《白夜行》。",
        ],
        "我最喜欢的作家最有名的小说是什么？",
        ["挪威的森林"],
        ["白夜行"],
    ),
    # 2-hop, tools: framework -> language
    (
        "z19",
        "zh",
        [
            "我的项目用 Django 框架。",
            "Django 是用 Python 写的。",
            "小王的项目用 Rails 框架。",
            "Rails 是用 Ruby 写的。",
        ],
        "我的项目用的框架是用什么语言写的？",
        ["Python"],
        ["Ruby"],
    ),
    # 3-hop, person -> son -> employer -> headquarters
    (
        "z20",
        "zh",
        [
            "老刘的儿子叫刘洋。",
            "刘洋在腾讯工作。",
            "腾讯的总部在深圳。",
            "老王的儿子叫王浩。",
            "王浩在阿里巴巴工作。",
            "阿里巴巴的总部在杭州。",
        ],
        "老刘的儿子工作的公司总部在哪个城市？",
        ["深圳"],
        ["杭州"],
    ),
]

EN = [
    # 2-hop, "the author of X"
    (
        "e01",
        "en",
        [
            "The author of Neuromancer is William Gibson.",
            "William Gibson was born in Conway.",
            "The author of Snow Crash is Neal Stephenson.",
            "Neal Stephenson was born in Fort Meade.",
        ],
        "Where was the author of Neuromancer born?",
        ["Conway"],
        ["Fort Meade"],
    ),
    # 2-hop, first-person possessive chain
    (
        "e02",
        "en",
        [
            "My sister's husband is Tom.",
            "Tom works at Boeing.",
            "My cousin's husband is Mark.",
            "Mark works at Microsoft.",
        ],
        "Where does my sister's husband work?",
        ["Boeing"],
        ["Microsoft"],
    ),
    # 2-hop, "my boss"
    (
        "e03",
        "en",
        [
            "My boss is Sarah Chen.",
            "Sarah Chen lives in Oakland.",
            "My landlord is David Park.",
            "David Park lives in Berkeley.",
        ],
        "Where does my boss live?",
        ["Oakland"],
        ["Berkeley"],
    ),
    # 2-hop, relative clause "the person who founded X"
    (
        "e04",
        "en",
        [
            "Maria Lopez founded Brightleaf.",
            "Maria Lopez lives in Denver.",
            "James Reed founded Northwind.",
            "James Reed lives in Seattle.",
        ],
        "Where does the person who founded Brightleaf live?",
        ["Denver"],
        ["Seattle"],
    ),
    # 2-hop, relative clause "the company that makes X"
    (
        "e05",
        "en",
        [
            "Zentrix makes the Orion headset.",
            "Zentrix is headquartered in Austin.",
            "Lumina makes the Vega headset.",
            "Lumina is headquartered in Toronto.",
        ],
        "Where is the company that makes the Orion headset headquartered?",
        ["Austin"],
        ["Toronto"],
    ),
    # 2-hop, relative clause "the company X works for"
    (
        "e06",
        "en",
        [
            "Alice works for Globex.",
            "Globex is based in Chicago.",
            "Bob works for Initech.",
            "Initech is based in Dallas.",
        ],
        "Where is the company Alice works for based?",
        ["Chicago"],
        ["Dallas"],
    ),
    # 2-hop, pets
    (
        "e07",
        "en",
        [
            "My dog is called Biscuit.",
            "Biscuit loves chasing squirrels.",
            "My cat is called Luna.",
            "Luna loves chasing laser pointers.",
        ],
        "What does my dog love chasing?",
        ["squirrel"],
        ["laser"],
    ),
    # 2-hop, schools
    (
        "e08",
        "en",
        [
            "My son goes to Lincoln Elementary.",
            "The principal of Lincoln Elementary is Karen Walsh.",
            "My niece goes to Jefferson Middle School.",
            "The principal of Jefferson Middle School is Robert Hale.",
        ],
        "Who is the principal of my son's school?",
        ["Walsh"],
        ["Hale"],
    ),
    # 2-hop, tools, relative clause "the app I use to ..."
    (
        "e09",
        "en",
        [
            "I track my tasks in OmniFocus.",
            "OmniFocus is made by the Omni Group.",
            "I write my notes in Bear.",
            "Bear is made by Shiny Frog.",
        ],
        "Who makes the app I use to track my tasks?",
        ["Omni Group"],
        ["Shiny Frog"],
    ),
    # 3-hop, first-person possessive chain
    (
        "e10",
        "en",
        [
            "My manager is Priya.",
            "Priya's husband is Raj.",
            "Raj teaches at Stanford.",
            "My dentist is Olga.",
            "Olga's husband is Ivan.",
            "Ivan teaches at Berkeley.",
        ],
        "Where does my manager's husband teach?",
        ["Stanford"],
        ["Berkeley"],
    ),
    # 2-hop, book written by
    (
        "e11",
        "en",
        [
            "Beloved was written by Toni Morrison.",
            "Toni Morrison taught at Princeton.",
            "Blood Meridian was written by Cormac McCarthy.",
            "Cormac McCarthy taught at Tulane.",
        ],
        "Where did the author of Beloved teach?",
        ["Princeton"],
        ["Tulane"],
    ),
    # 2-hop, "the CEO of X"
    (
        "e12",
        "en",
        [
            "The CEO of Northwind is Laura Kim.",
            "Laura Kim studied at MIT.",
            "The CEO of Contoso is Ben Ortiz.",
            "Ben Ortiz studied at Yale.",
        ],
        "Where did the CEO of Northwind study?",
        ["MIT"],
        ["Yale"],
    ),
    # 3-hop, my best friend -> brother -> instrument
    (
        "e13",
        "en",
        [
            "My best friend is Jake.",
            "Jake's brother is Luke.",
            "Luke plays the drums.",
            "Ryan's brother is Owen.",
            "Owen plays the violin.",
        ],
        "What instrument does my best friend's brother play?",
        ["drum"],
        ["violin"],
    ),
    # 2-hop, places: hometown -> state
    (
        "e14",
        "en",
        [
            "My wife's hometown is Savannah.",
            "Savannah is in Georgia.",
            "My mother's hometown is Tulsa.",
            "Tulsa is in Oklahoma.",
        ],
        "Which state is my wife's hometown in?",
        ["Georgia"],
        ["Oklahoma"],
    ),
    # 2-hop, relative clause "the restaurant where I ..."
    (
        "e15",
        "en",
        [
            "I had my birthday dinner at Lucca.",
            "Lucca is owned by Marco Rossi.",
            "I had my first date at Bistro Nine.",
            "Bistro Nine is owned by Claire Dubois.",
        ],
        "Who owns the restaurant where I had my birthday dinner?",
        ["Rossi"],
        ["Dubois"],
    ),
    # 2-hop, "the founder of X"
    (
        "e16",
        "en",
        [
            "The founder of Patagonia is Yvon Chouinard.",
            "Yvon Chouinard lives in Ventura.",
            "The founder of REI is Lloyd Anderson.",
            "Lloyd Anderson lives in Seattle.",
        ],
        "Where does the founder of Patagonia live?",
        ["Ventura"],
        ["Seattle"],
    ),
    # 2-hop, who-question about a third person's family
    (
        "e17",
        "en",
        [
            "Tom's daughter is Emily.",
            "Emily is married to Jack.",
            "Bill's daughter is Sophie.",
            "Sophie is married to Henry.",
        ],
        "Who is Tom's daughter married to?",
        ["Jack"],
        ["Henry", "Emily"],
    ),
    # 2-hop, pets with age
    (
        "e18",
        "en",
        [
            "My daughter's hamster is called Peanut.",
            "Peanut is three years old.",
            "My son's hamster is called Pebble.",
            "Pebble is one year old.",
        ],
        "How old is my daughter's hamster?",
        ["three", "3"],
        ["Pebble", "one year"],
    ),
    # 3-hop, my laptop -> maker -> headquarters
    (
        "e19",
        "en",
        [
            "My laptop is a ThinkPad.",
            "ThinkPad is made by Lenovo.",
            "Lenovo is headquartered in Beijing.",
            "My phone is a Pixel.",
            "Pixel is made by Google.",
            "Google is headquartered in Mountain View.",
        ],
        "Where is the company that makes my laptop headquartered?",
        ["Beijing"],
        ["Mountain View"],
    ),
    # 3-hop, my advisor's advisor -> school (shortcut answer rejected)
    (
        "e20",
        "en",
        [
            "My advisor is Professor Grant.",
            "Professor Grant's advisor was Helen Voss.",
            "Helen Voss graduated from Cornell.",
            "Professor Grant graduated from Duke.",
        ],
        "Where did my advisor's advisor graduate from?",
        ["Cornell"],
        ["Duke"],
    ),
]

CASES = ZH + EN
