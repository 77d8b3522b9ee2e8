"""Entity types for the offline reader: canonical names, gazetteers and a type guesser.

The offline extractor has no model to ask "what kind of thing is this?", so it
combines small hand-written gazetteers, jieba part-of-speech tags, name suffixes
(公司, 大学, 市, Inc., University ...) and hints from the predicate that connects
the name (the object of 住在 / lives in is a place). Types are canonical English
names so Chinese and English facts about the same thing agree.
"""

from __future__ import annotations

import re

from elephant_broker.language.lexicon import words
from elephant_broker.language.script import is_latin_letter

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

# Universities by their usual short names (浙江大学 and 复旦大学 have the suffix).
UNIVERSITIES: frozenset[str] = frozenset(
    {
        "mit", "stanford", "harvard", "清华", "北大", "浙大", "复旦", "交大", "上交大", "西交大", "中科大", "武大",
        "华科", "北航", "同济", "哈工大", "厦大", "北师大", "南开", "港大", "港科大", "中科院", "斯坦福", "哈佛",
        "麻省理工",
    }
)
# Well-known organisations (case-folded); the capitalised English "Apple" is the
# company, the lower-case "apple" the fruit, so that one is matched case-sensitively.
ORGANIZATIONS: frozenset[str] = UNIVERSITIES | frozenset(
    {
        "google", "microsoft", "amazon", "meta", "facebook", "openai", "anthropic",
        "ibm", "nvidia", "intel", "netflix", "alibaba", "tencent", "baidu", "bytedance",
        "huawei", "xiaomi", "deepseek", "nasa", "un",
        "阿里巴巴", "阿里", "腾讯", "百度", "字节跳动", "华为", "小米", "美团", "京东",
        "网易", "微软", "谷歌", "亚马逊", "拼多多", "滴滴", "蚂蚁集团",
    }
)
_SCHOOL_SUFFIXES_ZH = ("大学", "学院", "小学", "中学", "学校", "幼儿园", "高中", "初中", "附中", "附小")


def is_school(name: str) -> bool:
    """Whether a name is a school or university (复旦, 浙江大学, 实验小学), where one may study or teach."""
    return name.casefold() in UNIVERSITIES or name.endswith(_SCHOOL_SUFFIXES_ZH)
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
# What kind of thing a known product is: a car answers no question about a phone ("我用什么手机" is
# not answered by 宝马). Keys are the classes, with the words a question names them by.
THING_CLASSES: dict[str, frozenset[str]] = {
    "car": frozenset({
        "toyota", "corolla", "camry", "prius", "honda", "civic", "bmw", "mercedes", "audi", "volkswagen", "vw",
        "ford", "mustang", "tesla", "model 3", "model y", "porsche", "volvo", "subaru", "nissan", "hyundai", "kia",
        "mazda", "lexus", "jeep", "byd", "丰田", "本田", "宝马", "奔驰", "奥迪", "特斯拉",
        "比亚迪", "保时捷", "沃尔沃", "蔚来",
    }),
    "camera": frozenset({"nikon", "canon", "fujifilm", "leica", "gopro", "尼康", "佳能", "徕卡", "索尼相机"}),
    "computer": frozenset({"macbook", "macbook pro", "macbook air", "thinkpad"}),
    "phone": frozenset({"iphone", "苹果手机", "华为手机"}),
    "instrument": frozenset({
        "piano", "guitar", "violin", "cello", "drums", "flute", "saxophone", "trumpet", "ukulele", "harp", "clarinet",
        "钢琴", "吉他", "小提琴", "大提琴", "架子鼓", "长笛", "笛子", "二胡", "古筝", "琵琶",
        "萨克斯", "尤克里里", "口琴", "电子琴",
    }),
}  # fmt: skip
CLASS_WORDS: dict[str, frozenset[str]] = {
    "car": frozenset({"car", "cars", "vehicle", "车", "汽车"}),
    "camera": frozenset({"camera", "cameras", "相机"}),
    "computer": frozenset({"laptop", "laptops", "computer", "电脑", "笔记本", "笔记本电脑"}),
    "phone": frozenset({"phone", "phones", "手机"}),
    "instrument": frozenset({"instrument", "instruments", "乐器", "琴"}),
}


def thing_class(name: str) -> str | None:
    """The class of a known product (宝马 -> car; "ThinkPad X1 Carbon" -> computer, by its first words), else None."""
    folded = " ".join(name.casefold().split())
    for kind, names in THING_CLASSES.items():
        if folded in names or any(folded.startswith(f"{known} ") for known in names if known.isascii()):
            return kind
    return None


def class_of_word(word: str) -> str | None:
    """The product class a question's class word names (手机 -> phone), else None."""
    return next((kind for kind, words_ in CLASS_WORDS.items() if word.casefold() in words_), None)


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

# "chess club", "piano lessons": what one goes to or does, said by its head (in lower case; a
# capitalised "Riverside Chess Club" is an organisation).
ACTIVITY_HEADS_EN: tuple[str, ...] = ("club", "class", "classes", "lessons", "practice", "training", "camp")
_DETERMINERS_EN = frozenset({"my", "your", "his", "her", "our", "their", "its", "the", "a", "an", "this", "that"})

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
# Chinese provinces and cities (prefecture level and a few famous county-level ones) and
# foreign cities and countries by their Chinese names. jieba tags many of them as
# something else (大连 and 大同 adverbs, 保定 and 遵义 verbs, 西雅图 and 莫斯科 person
# names), so without them "住在大连" reads as an adverb with no place.
PLACES_ZH: frozenset[str] = frozenset(
    """
    河北 山西 辽宁 吉林 黑龙江 江苏 浙江 安徽 福建 江西 山东 河南 湖北 湖南 广东 海南 四川 贵州 云南
    陕西 甘肃 青海 内蒙古 广西 西藏 宁夏 新疆
    石家庄 唐山 秦皇岛 邯郸 邢台 保定 张家口 承德 沧州 廊坊 衡水 雄安
    太原 大同 阳泉 长治 晋城 朔州 晋中 运城 忻州 临汾 吕梁
    呼和浩特 包头 乌海 赤峰 通辽 鄂尔多斯 呼伦贝尔 巴彦淖尔 乌兰察布 满洲里
    沈阳 大连 鞍山 抚顺 本溪 丹东 锦州 营口 阜新 辽阳 盘锦 铁岭 朝阳 葫芦岛
    长春 四平 辽源 通化 白山 松原 白城 延边 延吉
    哈尔滨 齐齐哈尔 鸡西 鹤岗 双鸭山 大庆 伊春 佳木斯 七台河 牡丹江 黑河 绥化 漠河
    无锡 徐州 常州 南通 连云港 淮安 盐城 扬州 镇江 泰州 宿迁 昆山 江阴 常熟 张家港
    宁波 温州 嘉兴 湖州 绍兴 金华 衢州 舟山 台州 丽水 义乌
    合肥 芜湖 蚌埠 淮南 马鞍山 淮北 铜陵 安庆 黄山 滁州 阜阳 宿州 六安 亳州 池州 宣城
    福州 莆田 三明 泉州 漳州 南平 龙岩 宁德 武夷山
    南昌 景德镇 萍乡 九江 新余 鹰潭 赣州 吉安 宜春 抚州 上饶 井冈山
    济南 淄博 枣庄 东营 烟台 潍坊 济宁 泰安 威海 日照 临沂 德州 聊城 滨州 菏泽 曲阜
    郑州 开封 洛阳 平顶山 安阳 鹤壁 新乡 焦作 濮阳 许昌 漯河 三门峡 南阳 商丘 信阳 周口 驻马店
    黄石 十堰 宜昌 襄阳 鄂州 荆门 孝感 荆州 黄冈 咸宁 随州 恩施
    株洲 湘潭 衡阳 邵阳 岳阳 常德 张家界 益阳 郴州 永州 怀化 娄底 湘西
    韶关 珠海 汕头 佛山 江门 湛江 茂名 肇庆 惠州 梅州 汕尾 河源 阳江 清远 东莞 中山 潮州 揭阳 云浮
    南宁 柳州 桂林 梧州 北海 防城港 钦州 贵港 玉林 百色 贺州 河池 崇左
    海口 三亚 儋州
    自贡 攀枝花 泸州 德阳 绵阳 广元 遂宁 内江 乐山 南充 眉山 宜宾 广安 达州 雅安 巴中 资阳 凉山 九寨沟
    贵阳 六盘水 遵义 安顺 毕节 铜仁 凯里
    昆明 曲靖 玉溪 保山 昭通 丽江 临沧 大理 西双版纳 楚雄 红河 文山 香格里拉
    拉萨 日喀则 林芝 昌都
    铜川 宝鸡 咸阳 渭南 延安 汉中 榆林 商洛
    兰州 嘉峪关 金昌 天水 武威 张掖 平凉 酒泉 庆阳 定西 陇南 敦煌
    西宁 格尔木 银川 石嘴山 吴忠 固原
    乌鲁木齐 克拉玛依 吐鲁番 哈密 喀什 伊犁 阿克苏 库尔勒 石河子
    台北 高雄 台中 台南 新竹 基隆
    洛杉矶 旧金山 西雅图 芝加哥 波士顿 华盛顿 费城 休斯顿 亚特兰大 迈阿密 拉斯维加斯 夏威夷
    悉尼 墨尔本 多伦多 温哥华 蒙特利尔 奥克兰 首尔 釜山 大阪 京都 名古屋 北海道 曼谷 清迈
    吉隆坡 河内 胡志明市 雅加达 马尼拉 新德里 孟买 迪拜 莫斯科 罗马 米兰 威尼斯 佛罗伦萨
    巴塞罗那 马德里 里斯本 阿姆斯特丹 慕尼黑 法兰克福 苏黎世 日内瓦 维也纳 布拉格
    曼彻斯特 爱丁堡 开罗 伊斯坦布尔
    印度 越南 泰国 马来西亚 印尼 印度尼西亚 菲律宾 意大利 西班牙 葡萄牙 荷兰 比利时 瑞士 瑞典
    挪威 芬兰 丹麦 奥地利 希腊 土耳其 埃及 巴西 阿根廷 墨西哥 新西兰 爱尔兰 以色列 南非 乌克兰
    波兰 欧洲 亚洲 非洲 美洲 北美 东南亚
    """.split()
)
PLACES = PLACES | PLACES_ZH

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

# Relations whose other end is a person ("张三的导师", "my sister"): language/data, person_roles.
PERSON_ROLES: frozenset[str] = words("zh", "person_roles") | words("en", "person_roles")

# fmt: on
_TIME_RE = re.compile(
    r"^(?:从|自|自从|since |from |in |on )?"
    r"(?:\d{2,4}年(?:\d{1,2}月)?(?:\d{1,2}[日号])?|\d{1,2}月(?:\d{1,2}[日号])?|\d{4}"
    r"|\d{4}-\d{1,2}(?:-\d{1,2})?|\d{1,2}/\d{1,2}/\d{2,4}"
    r"|[一二三四五六七八九十]{1,3}月(?:[一二三四五六七八九十]{1,3}[日号])?"
    r"|去年|今年|前年|明年|后年|(?:上|下|这|本)个?(?:月|学期|季度)"
    # 上周, 下个星期, 这周末, 下周一, 上礼拜: a week (or its weekend, or one of its days), this one or another
    r"|(?:上|下|这|本)个?(?:周|星期|礼拜)[一二三四五六日天末]?|(?:周|星期|礼拜)[一二三四五六日天末]"
    r"|昨天|前天|今天|明天|后天|上半年|下半年"
    # 年后, 春节前, 过完年, 暑假以后: before or after the holidays
    r"|(?:过完)?(?:年|春节|节|国庆|寒假|暑假|假期)(?:后|以后|之后|前|以前|之前)|过完年|过完节"
    r"|年初|年底|小时候|[\d一二三四五六七八九十两几]+(?:年|个月|周|天)(?:前|以前|后|以后|之后)"
    r"|yesterday|today|last (?:year|month|week)|this (?:year|month|week)"
    r"|(?:next |last |this )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
    r"|(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten) (?:years?|months?|weeks?|days?) ago"
    r"|(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december)(?: \d{1,2}(?:st|nd|rd|th)?)?(?:,? \d{4})?"
    # "Nov 18, 1923": an abbreviated month only with its day (Jan is a name too)
    r"|(?:jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.? \d{1,2}(?:st|nd|rd|th)?(?:,? \d{4})?"
    # "3 May 1990", "17th of October 1933": the day first
    r"|(?:the )?\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:january|february|march|april|may|june|july|august|september"
    r"|october|november|december)(?:,? \d{4})?)"
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
_WORKPLACE_PREDICATES = tuple(hint for hint in _ORG_PREDICATES if hint.isascii() and hint.endswith((" at", " from")))
"""Where someone works or studies: a given name opening the object names an institution (Grace Memorial)."""
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
# Schools: the object of 毕业于 / 就读于 / graduated from is an organisation even when
# jieba tags its short name as a place (浙大 is "ns").
_SCHOOL_PREDICATES = ("毕业于", "就读于", "就读", "graduate from", "study at", "studied at", "attend")
# Only a person lives, is born, works or studies somewhere: the subject of these is a
# person even when a gazetteer knows the name as something else (Tesla the car maker,
# Julia the language, 小米 the company).
_PERSON_SUBJECT_PREDICATES = (
    "住在",
    "居住",
    "出生",
    "毕业",
    "就读",
    "嫁给",
    "娶",
    "上班",
    "工作",
    "任教",
    "长大",
    "老家",
    "live in",
    "live at",
    "born in",
    "born on",
    "born",
    "work at",
    "work for",
    "work as",
    "grow up",
    "graduate",
    "study at",
    "studied at",
    "married",
    "marry",
    "teach at",
    "intern at",
)
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
        if _is_capitalised_name(name) and not any(w in THINGS or gazetteer_type(w) for w in words[:-1]):
            return None  # Henry Ford, Nikola Tesla: a person named like the brand, not the car.
        return THING
    if _CJK_RE.search(name) and len(name) >= 3:
        if any(name.startswith(brand) and len(brand) >= 2 for brand in THINGS if _CJK_RE.search(brand)):
            return THING
    return None


_EATING_WORDS = frozenset({"eat", "eats", "ate", "eating", "drink", "drinks", "drank", "drinking"})


def _is_eaten(predicate: str) -> bool:
    """Whether the object of ``predicate`` is what is eaten or drunk (吃, 爱喝, "likes eating").

    The verb must end the predicate: the object of "eat at" or 吃在 is where, not what.
    """
    pred = predicate.casefold().strip()
    if _CJK_RE.search(pred):
        return pred.endswith(("吃", "喝")) and not pred.endswith(("好吃", "难吃", "好喝", "难喝"))
    return bool(pred) and pred.split()[-1] in _EATING_WORDS


def _names_a_person(name: str, predicate: str, role: str) -> bool:
    """Whether ``name`` is a person because it lives, is born, works or studies somewhere."""
    if role != "subject" or not _matches(predicate, _PERSON_SUBJECT_PREDICATES):
        return False
    if _CJK_RE.search(name):
        return len(name) <= 4 and all(_CJK_RE.match(ch) for ch in name)
    return _is_capitalised_name(name) and len(name.split()) <= 3


def is_time(name: str) -> bool:
    """Return True when ``name`` reads as a date, year or time expression."""
    return bool(_TIME_RE.match(name.strip()))


def _is_workplace_predicate(predicate: str) -> bool:
    """Whether a predicate says where someone works or studies, in any person ("works at" as "work at")."""
    verb, _, rest = predicate.casefold().strip().partition(" ")
    return _matches(predicate, _WORKPLACE_PREDICATES) or _matches(
        f"{verb.removesuffix('s')} {rest}".strip(), _WORKPLACE_PREDICATES
    )


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
    if len(words) >= 2 and words[-1] in ACTIVITY_HEADS_EN and name.islower() and words[0] not in _DETERMINERS_EN:
        return ACTIVITY
    if len(words) >= 2 and (words[-1] in ORG_SUFFIXES_EN or words[0] in {"university", "bank"}):
        return ORGANIZATION
    if len(words) >= 2 and words[-1] in PLACE_SUFFIXES_EN:
        return PLACE
    if len(words) >= 2 and words[0].rstrip(".") in PERSON_TITLES_EN:
        return PERSON
    return None


def suffix_type(name: str) -> str | None:
    """Return the type a name's suffix gives it (公司 / Inc. -> Organization, 区 / Street -> Place), else None."""
    return _suffix_type(name)


def _is_capitalised_name(name: str) -> bool:
    words = name.split()
    return bool(words) and all(
        w[:1].isupper() and w.replace("-", "").isalpha() and all(map(is_latin_letter, w.replace("-", "")))
        for w in words
    )


def guess_type(name: str, pos: str | None = None, predicate: str | None = None, *, role: str = "object") -> str:
    """Guess the canonical entity type of a name.

    Order of evidence: gazetteers, time expressions, name shapes (小李, 王老师, Dr. X),
    suffixes (公司, 大学, 市, Inc., University), jieba part of speech, then hints
    from the predicate (object of 住在 -> Place, subject of 喜欢 -> Person).

    A few predicates outweigh the gazetteers and tags: whoever lives, is born, works
    or studies somewhere is a person ("Tesla works at Edison Labs", 小米住在北京);
    what is eaten or drunk is food (喜欢吃小米); the object of 毕业于 / 就读于 /
    "graduated from" is a school even when jieba tags it a place (浙大). A surname
    plus a place suffix is a person when tagged as a name or living somewhere (刘建国).

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
    if found and found not in {PLACE, TIME} and predicate and _names_a_person(name, predicate, role):
        return PERSON  # "Tesla works at Edison Labs", "Julia lives in Paris": not the brand.
    if found and found != FOOD and predicate and role == "object" and _is_eaten(predicate):
        return FOOD  # 喜欢吃小米: millet, not Xiaomi.
    if found == THING and predicate and _matches(predicate, _ORG_PREDICATES):
        return ORGANIZATION  # "works at Toyota": the brand is the company here.
    if found:
        return found
    if is_time(name):
        return TIME
    if looks_like_zh_person(name):
        return PERSON
    found = _suffix_type(name)
    if (
        found == PLACE
        and name[0] in SURNAMES_ZH
        and (pos in {"NAME", "nr", "nrfg"} or bool(predicate) and _names_a_person(name, predicate or "", role))
    ):
        return PERSON  # 刘建国, 张青山住在杭州: a person's name that happens to end in 国 or 山
    if found:
        return found
    if role == "object" and predicate and _matches(predicate, _SCHOOL_PREDICATES):
        return ORGANIZATION  # 毕业于浙大: jieba's place tag for a short school name misleads.
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
    if (
        _is_capitalised_name(name)
        and name.casefold().split()[0] in GIVEN_NAMES
        and not (role == "object" and predicate and len(words) > 1 and _is_workplace_predicate(predicate))
    ):
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
        if (_matches(pred, _ORG_PREDICATES) or _is_workplace_predicate(pred)) and (
            _is_capitalised_name(name) or _CJK_RE.search(name)
        ):
            return ORGANIZATION
        if _matches(pred, _FOOD_PREDICATES) and pred.split()[-1] not in {"at", "in", "with", "for", "on"}:
            return FOOD  # "eats sushi" (but "eats at McDonald's" names where)
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
