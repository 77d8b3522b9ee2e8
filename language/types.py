"""Entity types for the offline reader: canonical names, gazetteers and a type guesser.

The offline extractor has no model to ask "what kind of thing is this?", so it
combines small hand-written gazetteers, jieba part-of-speech tags, name suffixes
(公司, 大学, 市, Inc., University ...) and hints from the predicate that connects
the name (the object of 住在 / lives in is a place). Types are canonical English
names so Chinese and English facts about the same thing agree.
"""

from __future__ import annotations

import re

PERSON = "Person"
ORGANIZATION = "Organization"
PLACE = "Place"
TIME = "Time"
TOOL = "Tool"
LANGUAGE = "Language"
FOOD = "Food"
THING = "Thing"
EVENT = "Event"
ACTIVITY = "Activity"
CONCEPT = "Concept"

ENTITY_TYPES: tuple[str, ...] = (
    PERSON,
    ORGANIZATION,
    PLACE,
    TIME,
    TOOL,
    LANGUAGE,
    FOOD,
    THING,
    EVENT,
    ACTIVITY,
    CONCEPT,
)

# fmt: off
# (Word lists stay packed several to a line; one per line would be hundreds of lines.)
# Programming and natural languages, keyed case-folded.
LANGUAGES: frozenset[str] = frozenset(
    {
        "python", "javascript", "js", "typescript", "ts", "java", "go", "golang", "rust",
        "c", "c++", "c#", "cpp", "sql", "ruby", "php", "kotlin", "swift", "scala", "r",
        "matlab", "bash", "shell", "lua", "perl", "haskell", "dart", "elixir", "erlang",
        "julia", "html", "css", "objective-c", "clojure", "f#", "fortran", "cobol",
        "english", "chinese", "mandarin", "cantonese", "french", "german", "spanish",
        "japanese", "korean", "russian", "italian", "portuguese", "arabic", "hindi",
        "英语", "英文", "汉语", "中文", "普通话", "粤语", "日语", "日文", "法语", "德语",
        "西班牙语", "韩语", "俄语", "意大利语", "葡萄牙语", "阿拉伯语",
    }
)

# Tools, software and products.
TOOLS: frozenset[str] = frozenset(
    {
        "n8n", "docker", "kubernetes", "k8s", "neo4j", "falkordb", "redis", "mysql",
        "postgresql", "postgres", "mongodb", "sqlite", "langgraph", "langchain",
        "langsmith", "node.js", "nodejs", "node", "react", "vue", "angular", "django",
        "flask", "fastapi", "pytorch", "tensorflow", "numpy", "pandas", "vs code",
        "vscode", "excel", "word", "powerpoint", "notion", "slack", "git", "github",
        "gitlab", "jira", "figma", "photoshop", "chatgpt", "claude", "linux", "windows",
        "macos", "ubuntu", "zapier", "airflow", "spark", "kafka", "elasticsearch",
        "nginx", "aws", "jupyter", "obsidian", "wps", "jenkins", "terraform", "ollama",
        "vllm", "dify", "coze", "cursor", "copilot", "vim", "emacs", "pycharm",
        "intellij", "xcode", "unity", "blender", "tableau", "postman", "zoom",
        "钉钉", "飞书", "微信", "企业微信", "腾讯会议",
    }
)

# Names in these gazetteers that are also ordinary English words: only their
# capitalised spelling counts as a name when scanning free text.
AMBIGUOUS_LOWER: frozenset[str] = frozenset(
    {"go", "r", "c", "swift", "word", "node", "spark", "rust", "java", "ruby", "unity",
     "zoom", "cursor", "notion", "shell", "react", "english", "chinese"}
)

FOODS: frozenset[str] = frozenset(
    {
        "西红柿", "番茄", "苹果", "香蕉", "橙子", "橘子", "葡萄", "西瓜", "草莓", "芒果",
        "榴莲", "火锅", "饺子", "面条", "米饭", "包子", "烤鸭", "小龙虾", "麻辣烫", "寿司",
        "披萨", "汉堡", "咖啡", "奶茶", "牛肉", "鸡肉", "猪肉", "豆腐", "辣椒", "巧克力",
        "冰淇淋", "面包", "蛋糕", "拉面", "米粉", "螺蛳粉", "烧烤", "水饺", "馒头", "粽子",
        "月饼", "茶", "绿茶", "红茶", "鱼", "虾", "鸡蛋", "牛奶", "啤酒", "红酒",
        "tomato", "tomatoes", "apple", "apples", "banana", "bananas", "orange", "oranges",
        "grapes", "strawberries", "mango", "pizza", "sushi", "pasta", "burger",
        "burgers", "hamburger", "rice", "noodles", "ramen", "tacos", "curry",
        "chocolate", "coffee", "tea", "ice cream", "salad", "steak", "cheese", "bread",
        "dumplings", "hot pot", "hotpot", "soup", "beer", "wine", "milk", "eggs",
        "chicken", "beef", "pork", "fish", "tofu", "cake", "cookies", "sandwiches",
    }
)

# Well-known organisations (case-folded); the capitalised English "Apple" is the
# company, the lower-case "apple" the fruit, so that one is matched case-sensitively.
ORGANIZATIONS: frozenset[str] = frozenset(
    {
        "google", "microsoft", "amazon", "meta", "facebook", "openai", "anthropic",
        "ibm", "nvidia", "intel", "netflix", "alibaba", "tencent", "baidu", "bytedance",
        "huawei", "xiaomi", "deepseek", "mit", "stanford", "harvard", "nasa", "un",
        "阿里巴巴", "阿里", "腾讯", "百度", "字节跳动", "华为", "小米", "美团", "京东",
        "网易", "微软", "谷歌", "亚马逊", "拼多多", "滴滴", "蚂蚁集团", "清华", "北大",
    }
)
CASED_ORGANIZATIONS: frozenset[str] = frozenset({"Apple", "Oracle"})

# Sports, exercise and hobbies: what "what exercise / 什么运动 / 爱好" asks for.
ACTIVITIES: frozenset[str] = frozenset(
    {
        "跑步", "慢跑", "晨跑", "夜跑", "游泳", "健身", "锻炼", "散步", "爬山", "登山", "徒步", "骑行",
        "骑车", "滑雪", "滑冰", "冲浪", "潜水", "瑜伽", "冥想", "打坐", "跳舞", "唱歌", "画画", "钓鱼",
        "旅游", "旅行", "开车", "篮球", "足球", "网球", "羽毛球", "乒乓球", "排球", "高尔夫", "太极",
        "太极拳", "拳击", "象棋", "围棋", "下棋", "摄影", "烘焙", "做饭", "写作", "阅读", "遛狗",
        "打篮球", "踢足球", "打网球", "打羽毛球", "打乒乓球", "游戏", "打游戏",
        "running", "jogging", "swimming", "hiking", "cycling", "biking", "skiing", "skating",
        "surfing", "diving", "climbing", "dancing", "singing", "painting", "drawing", "fishing",
        "yoga", "pilates", "meditation", "meditating", "tennis", "basketball", "football", "soccer",
        "golf", "baseball", "volleyball", "badminton", "chess", "boxing", "rowing", "walking",
        "camping", "gardening", "knitting", "baking", "cooking", "photography",
        "weightlifting", "martial arts", "karate", "judo", "snowboarding",
    }
)
# Everyday products and brands people own, drive or play: things, not organisations
# (the brand is an organisation when someone works there; see ``guess_type``).
THINGS: frozenset[str] = frozenset(
    {
        "toyota", "corolla", "camry", "prius", "honda", "civic", "bmw", "mercedes", "audi", "volkswagen",
        "vw", "ford", "mustang", "tesla", "model 3", "model y", "porsche", "volvo", "subaru", "nissan",
        "hyundai", "kia", "mazda", "lexus", "jeep", "byd", "nikon", "canon", "fujifilm", "leica",
        "gopro", "iphone", "ipad", "macbook", "macbook pro", "macbook air", "thinkpad", "kindle",
        "playstation", "xbox",
        "piano", "guitar", "violin", "cello", "drums", "flute", "saxophone", "trumpet", "ukulele",
        "harp", "clarinet",
        "丰田", "本田", "宝马", "奔驰", "奥迪", "特斯拉", "比亚迪", "保时捷", "沃尔沃", "蔚来",
        "尼康", "佳能", "徕卡", "索尼", "索尼相机", "苹果手机", "华为手机", "sony",
        "钢琴", "吉他", "小提琴", "大提琴", "架子鼓", "长笛", "笛子", "二胡", "古筝", "琵琶",
        "萨克斯", "尤克里里", "口琴", "电子琴",
    }
)
_GERUND_NOUNS: frozenset[str] = frozenset(
    {
        "building", "wedding", "morning", "evening", "meeting", "ceiling", "clothing", "housing",
        "setting", "feeling", "thing", "something", "nothing", "anything", "everything", "king",
        "ring", "spring", "string", "wing", "painting", "drawing", "saving", "savings", "earring",
        "ending", "beginning", "being", "offering", "listing", "funding", "training", "pudding",
        "stuffing", "icing", "dressing", "filling", "topping", "lightning", "sibling", "darling",
    }
)

ORG_SUFFIXES_ZH: tuple[str, ...] = (
    "公司", "集团", "大学", "学院", "银行", "医院", "研究所", "研究院", "实验室", "中学",
    "小学", "学校", "协会", "基金会", "委员会", "工作室", "事务所", "政府", "出版社",
    "科技", "研究中心", "俱乐部", "幼儿园",
)
ORG_SUFFIXES_EN: tuple[str, ...] = (
    "inc", "inc.", "corp", "corp.", "corporation", "ltd", "ltd.", "llc", "co.",
    "company", "university", "college", "institute", "bank", "hospital", "school",
    "foundation", "group", "labs", "lab", "technologies", "association", "agency",
    "ministry", "academy", "society", "studio", "studios",
)

PLACE_SUFFIXES_ZH: tuple[str, ...] = (
    "省", "市", "县", "区", "国", "城", "村", "路", "街", "镇", "州", "岛", "湾", "港",
    "山", "湖", "乡", "洲",
)
PLACE_SUFFIXES_EN: tuple[str, ...] = (
    "city", "county", "street", "road", "avenue", "province", "island", "lake",
    "river", "mountain", "valley", "village", "district", "bay",
)
PLACES: frozenset[str] = frozenset(
    {
        "北京", "上海", "广州", "深圳", "杭州", "南京", "成都", "武汉", "西安", "重庆",
        "天津", "苏州", "厦门", "青岛", "长沙", "香港", "台湾", "澳门", "中国", "美国",
        "日本", "英国", "法国", "德国", "韩国", "俄罗斯", "加拿大", "澳大利亚", "新加坡",
        "硅谷", "纽约", "伦敦", "巴黎", "东京", "柏林", "西湖",
        "london", "paris", "tokyo", "beijing", "shanghai", "shenzhen", "hangzhou",
        "new york", "san francisco", "seattle", "berlin", "china", "usa", "us",
        "united states", "uk", "england", "france", "germany", "japan", "canada",
        "australia", "india", "singapore", "california", "texas", "silicon valley",
        "europe", "asia", "boston", "chicago", "los angeles", "la", "sydney", "toronto",
        "hong kong", "italy", "spain", "rome", "madrid", "amsterdam", "dublin",
        "munich", "vancouver", "melbourne", "seoul", "taipei", "washington",
    }
)

# Common given names: a lone capitalised word from this list is a person.
GIVEN_NAMES: frozenset[str] = frozenset(
    {
        "alice", "bob", "carol", "dave", "david", "eve", "frank", "grace", "henry",
        "jack", "james", "jane", "john", "mary", "mike", "michael", "sarah", "tom",
        "emma", "olivia", "liam", "noah", "sophia", "lucy", "peter", "paul", "anna",
        "kate", "chris", "linda", "susan", "robert", "william", "daniel", "laura",
        "emily", "jessica", "kevin", "brian", "amy", "lisa", "mark", "steve", "tony",
        "nina", "sam", "max", "leo", "ben", "zoe", "ella", "ivan", "oscar", "ruth",
    }
)

# The hundred-odd most common Chinese surnames, for 小李 / 老王 / 王老师 style names.
SURNAMES_ZH: frozenset[str] = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝"
    "龚邵万钱严覃武戴莫孔向汤"
)
PERSON_TITLES_ZH: tuple[str, ...] = (
    "老师", "先生", "女士", "小姐", "教授", "医生", "总", "经理", "同学", "师傅", "阿姨",
    "叔叔", "博士",
)
PERSON_TITLES_EN: frozenset[str] = frozenset(
    {"mr", "mrs", "ms", "miss", "dr", "prof", "professor", "sir", "madam", "uncle", "aunt"}
)

# Relations whose other end is a person ("张三的导师", "my sister").
PERSON_ROLES: frozenset[str] = frozenset(
    {
        "妈妈", "母亲", "爸爸", "父亲", "哥哥", "姐姐", "弟弟", "妹妹", "儿子", "女儿",
        "老婆", "妻子", "老公", "丈夫", "朋友", "好友", "同事", "老板", "上司", "领导",
        "导师", "老师", "学生", "同学", "室友", "邻居", "男朋友", "女朋友", "爷爷", "奶奶",
        "外公", "外婆", "孩子", "作者", "创始人", "经理", "队友", "搭档", "客户", "助理",
        "mother", "mom", "mum", "father", "dad", "brother", "sister", "son", "daughter",
        "wife", "husband", "friend", "colleague", "boss", "manager", "advisor", "adviser",
        "supervisor", "teacher", "student", "classmate", "roommate", "neighbor",
        "neighbour", "boyfriend", "girlfriend", "grandfather", "grandmother", "child",
        "author", "founder", "partner", "cousin", "uncle", "aunt", "mentor", "coach",
        "doctor", "ceo", "cto", "creator", "inventor", "director", "parents", "kids", "children",
        "brother-in-law", "sister-in-law", "mother-in-law", "father-in-law", "fiance", "fiancee",
        "师父", "徒弟", "师傅", "合伙人", "未婚夫", "未婚妻", "岳父", "岳母", "公公", "婆婆",
    }
)

# fmt: on
_TIME_RE = re.compile(
    r"^(?:从|自|自从|since |from |in |on )?"
    r"(?:\d{2,4}年(?:\d{1,2}月)?(?:\d{1,2}[日号])?|\d{1,2}月(?:\d{1,2}[日号])?|\d{4}"
    r"|\d{4}-\d{1,2}(?:-\d{1,2})?|\d{1,2}/\d{1,2}/\d{2,4}"
    r"|[一二三四五六七八九十]{1,3}月(?:[一二三四五六七八九十]{1,3}[日号])?"
    r"|去年|今年|前年|明年|后年|上周|下周|本周|上个月|下个月|这个月|本月|上个星期|上星期|下个星期"
    r"|昨天|前天|今天|明天|后天|上半年|下半年"
    r"|年初|年底|小时候|[\d一二三四五六七八九十两几]+(?:年|个月|周|天)(?:前|以前)"
    r"|yesterday|today|last (?:year|month|week)|this (?:year|month|week)"
    r"|(?:next |last |this )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"|(?:周|星期|礼拜)[一二三四五六日天]"
    r"|(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten) (?:years?|months?|weeks?|days?) ago"
    r"|(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december)(?: \d{1,2}(?:st|nd|rd|th)?)?(?:,? \d{4})?)"
    r"(?:起|开始|以来|以后|后|底|初)?$",
    re.IGNORECASE,
)

# Predicate hints for the object: the object of 住在 is a place, of 吃 a food ...
_PLACE_PREDICATES = (
    "住在",
    "居住在",
    "生活在",
    "住",
    "来自",
    "出生于",
    "出生在",
    "生于",
    "位于",
    "总部位于",
    "搬到",
    "搬去",
    "移居",
    "定居",
    "去",
    "在",
    "长大",
    "老家",
    "live in",
    "born in",
    "move to",
    "from",
    "come from",
    "located in",
    "based in",
    "grow up in",
    "headquartered in",
    "travel to",
    "go to",
    "visit",
    "live",
    "stay in",
    "relocate to",
)
_ORG_PREDICATES = (
    "工作",
    "上班",
    "任教",
    "就职于",
    "任职于",
    "加入",
    "毕业于",
    "就读于",
    "就读",
    "实习",
    "创立",
    "创办",
    "入职",
    "work at",
    "work for",
    "join",
    "graduate from",
    "study at",
    "teach at",
    "found",
    "intern at",
    "employ by",
)
_FOOD_PREDICATES = ("吃", "爱吃", "喜欢吃", "最爱吃", "喝", "做饭", "eat", "cook", "drink")
_TOOL_PREDICATES = ("用", "使用", "在用", "安装", "部署", "用来", "use", "install", "deploy")
_LANGUAGE_PREDICATES = (
    "精通",
    "会",
    "会说",
    "说",
    "学",
    "学习",
    "掌握",
    "擅长",
    "会写",
    "speak",
    "know",
    "learn",
    "study",
    "fluent in",
    "good at",
    "write in",
    "code in",
    "program in",
)
_PERSON_OBJECT_PREDICATES = ("嫁给", "娶", "married to", "marry", "date", "认识")
_HUMAN_SUBJECT_PREDICATES = (
    "喜欢",
    "爱",
    "讨厌",
    "住",
    "精通",
    "工作",
    "毕业",
    "出生",
    "来自",
    "会",
    "学",
    "任教",
    "上班",
    "加入",
    "认识",
    "吃",
    "like",
    "love",
    "hate",
    "enjoy",
    "live",
    "work",
    "born",
    "write",
    "wrote",
    "speak",
    "know",
    "marry",
    "married",
    "graduate",
    "study",
    "teach",
    "prefer",
    "move",
    "grow up",
    "eat",
    "join",
    "own",
    "have",
    "buy",
    "create",
    "found",
    "play",
    "drink",
    "visit",
    "adopt",
    "travel",
    "cook",
    "read",
    "admire",
    "养",
    "买",
    "去过",
    "创立",
    "创办",
    "学习",
    "擅长",
    "认为",
)

_CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


# fmt: off
_ACTIVITY_PREDICATES = (
    "like", "love", "enjoy", "hate", "dislike", "prefer", "go", "goes", "went", "do", "does", "did",
    "can", "practice", "practise", "start", "started", "stop", "quit", "avoid", "try", "learn", "take up",
    "喜欢", "爱", "讨厌", "会", "习惯", "去", "学", "开始", "坚持",
)
# fmt: on


def _product_type(name: str) -> str | None:
    """Thing for a name made of a known product word plus models or colours ("red Toyota Corolla")."""
    words = name.casefold().split()
    if len(words) >= 2 and any(w in THINGS for w in words) and all(w.isalnum() for w in words):
        return THING
    if _CJK_RE.search(name) and len(name) >= 3:
        if any(name.startswith(brand) and len(brand) >= 2 for brand in THINGS if _CJK_RE.search(brand)):
            return THING
    return None


def is_time(name: str) -> bool:
    """Return True when ``name`` reads as a date, year or time expression."""
    return bool(_TIME_RE.match(name.strip()))


def _matches(predicate: str, hints: tuple[str, ...]) -> bool:
    # Chinese predicates are compared by substring (喜欢吃 contains 吃); English
    # ones by whole-word prefix so "used" is not taken for "use" in "used to".
    pred = predicate.casefold().strip()
    for hint in hints:
        if _CJK_RE.search(hint):
            if hint in pred:
                return True
        elif pred == hint or pred.startswith(hint + " ") or pred.endswith(" " + hint):
            return True
    return False


def gazetteer_type(name: str) -> str | None:
    """Return the type of a name found in one of the gazetteers, else None."""
    key = name.casefold().strip()
    if key in LANGUAGES:
        return LANGUAGE
    if key in TOOLS:
        return TOOL
    if name in CASED_ORGANIZATIONS:
        return ORGANIZATION
    if key in FOODS:
        return FOOD
    if key in ACTIVITIES:
        return ACTIVITY
    if key in THINGS or (name in THINGS):
        return THING
    if key in ORGANIZATIONS:
        return ORGANIZATION
    if key in PLACES:
        return PLACE
    return None


def looks_like_zh_person(name: str) -> bool:
    """Return True for Chinese name shapes such as 小李, 老王 or 王老师."""
    if not 2 <= len(name) <= 4 or not all(_CJK_RE.match(ch) for ch in name):
        return False
    if len(name) == 2 and name[0] in "小老阿" and name[1] in SURNAMES_ZH:
        return True
    return any(name.endswith(t) and name[0] in SURNAMES_ZH and len(name) > len(t) for t in PERSON_TITLES_ZH)


def _suffix_type(name: str) -> str | None:
    if _CJK_RE.search(name):
        if any(name.endswith(s) and len(name) > len(s) for s in ORG_SUFFIXES_ZH):
            return ORGANIZATION
        if any(name.endswith(s) and len(name) > len(s) for s in PLACE_SUFFIXES_ZH):
            return PLACE
        return None
    words = name.casefold().split()
    if len(words) >= 2 and (words[-1] in ORG_SUFFIXES_EN or words[0] in {"university", "bank"}):
        return ORGANIZATION
    if len(words) >= 2 and words[-1] in PLACE_SUFFIXES_EN:
        return PLACE
    if len(words) >= 2 and words[0].rstrip(".") in PERSON_TITLES_EN:
        return PERSON
    return None


def _is_capitalised_name(name: str) -> bool:
    words = name.split()
    return bool(words) and all(w[:1].isupper() and w.replace("-", "").isalpha() and w.isascii() for w in words)


def guess_type(name: str, pos: str | None = None, predicate: str | None = None, *, role: str = "object") -> str:
    """Guess the canonical entity type of a name.

    Order of evidence: gazetteers, time expressions, name shapes (小李, 王老师, Dr. X),
    suffixes (公司, 大学, 市, Inc., University), jieba part of speech, then hints
    from the predicate (object of 住在 -> Place, subject of 喜欢 -> Person).

    Args:
        name: The entity name as written.
        pos: jieba part-of-speech flag of the name, when it was one token.
        predicate: The predicate the name takes part in, as extracted.
        role: ``"object"`` or ``"subject"``: which end of the predicate the name is.

    Returns:
        One of ``ENTITY_TYPES``; ``"Concept"`` when nothing points anywhere.
    """
    name = name.strip()
    if not name:
        return CONCEPT
    found = gazetteer_type(name) or _product_type(name)
    if found == THING and predicate and _matches(predicate, _ORG_PREDICATES):
        return ORGANIZATION  # "works at Toyota": the brand is the company here.
    if found:
        return found
    if is_time(name):
        return TIME
    if looks_like_zh_person(name):
        return PERSON
    found = _suffix_type(name)
    if found:
        return found
    if pos:
        if (pos.startswith("nr") and pos != "nrt") or pos == "NAME":
            return PERSON
        if pos == "ns":
            return PLACE
        if pos == "nt":
            return ORGANIZATION
        if pos == "t" and is_time(name):
            return TIME
    words = name.split()
    if _is_capitalised_name(name) and name.casefold().split()[0] in GIVEN_NAMES:
        return PERSON
    # "Alice's sister", "小王妈妈": a possessed role is a person.
    last = words[-1].casefold() if words else ""
    if ("'s " in name and last in PERSON_ROLES) or (
        _CJK_RE.search(name) and any(name.endswith(r) and len(name) > len(r) for r in PERSON_ROLES if _CJK_RE.search(r))
    ):
        return PERSON
    pred = predicate or ""
    if (
        role == "object"
        and len(words) == 1
        and name.islower()
        and name.endswith("ing")
        and len(name) > 5
        and name not in _GERUND_NOUNS
        and (not pred or _matches(pred, _ACTIVITY_PREDICATES))
    ):
        return ACTIVITY  # "loves hiking", "goes jogging": a gerund object is an activity.
    if role == "subject":
        if (
            pred
            and _matches(pred, _HUMAN_SUBJECT_PREDICATES)
            and (_is_capitalised_name(name) or pos in {"nr", "nrfg", "NAME"})
        ):
            return PERSON
        return CONCEPT
    if pred:
        if _matches(pred, _PLACE_PREDICATES) and (_is_capitalised_name(name) or _CJK_RE.search(name)):
            return PLACE
        if _matches(pred, _ORG_PREDICATES) and (_is_capitalised_name(name) or _CJK_RE.search(name)):
            return ORGANIZATION
        if _matches(pred, _FOOD_PREDICATES):
            return FOOD
        if _matches(pred, _LANGUAGE_PREDICATES) and (
            name.endswith(("语", "文")) or (len(words) == 1 and name.casefold().endswith(("ese", "ish", "ian")))
        ):
            return LANGUAGE
        if _matches(pred, _TOOL_PREDICATES) and len(words) <= 2 and not _CJK_RE.search(name):
            return TOOL
        if _matches(pred, _PERSON_OBJECT_PREDICATES) or pred.casefold() in PERSON_ROLES:
            if _is_capitalised_name(name) or _CJK_RE.search(name):
                return PERSON
    if len(words) >= 2 and _is_capitalised_name(name) and len(words) <= 3:
        # Two or three capitalised words with no other evidence: most often a person.
        return PERSON
    return CONCEPT
