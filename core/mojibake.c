/*
** core/mojibake.c - find and undo mojibake: UTF-8 text decoded with the
** wrong charset (Windows-1252, Latin-1, Windows-1251, Windows-1250 or
** Mac OS Roman) and encoded as UTF-8 again.
**
** THE DECISION RULE (docs/mojibake.md says the same with examples)
**
** False positives are the enemy: real text must come back unchanged, so
** a reading is undone only where the evidence is strong, and only by an
** exact re-encoding (nothing is ever guessed or dropped).
**
** 1. Fast rejection. A value is looked at only when it has a character
**    U+00C2..U+00F4 (C3 82..C3 B4) followed by one that the misreading
**    makes of a continuation byte (C2 xx, or cp1252's specials: C5, C6,
**    CB, E2 lead bytes), or "Â" and a space; then it must be well-formed.
**    ASCII, Greek, Russian, CJK and clean accented prose stop there.
**    (For cp1251, rule 8: a Cyrillic letter В..ф, cp1251's lead bytes,
**    followed by one whose cp1251 byte is 80-BF; for cp1250 and
**    MacRoman, rule 9: one of the leads it allows followed by one of the
**    charset's characters of bytes 80-BF.)
** 2. A pass reads characters back to bytes as cp1252, the C1 controls
**    U+0080..U+009F as their own bytes (WHATWG's cp1252 for 81 8D 8F 90
**    9D, Latin-1 for the others: a pass that needs one of those is named
**    latin1, else cp1252). A run is a maximal stretch of non-ASCII
**    characters that all have such a byte.
** 3. A candidate is 2 to 4 characters of a run whose bytes form one
**    well-formed multi-byte UTF-8 sequence that decodes to a plausible
**    character: in the blocks real text uses (Latin-1, Latin Extended-A,
**    Romanian and Vietnamese letters of Extended-B, cp1252's ƒ ˆ ˜, Greek,
**    Cyrillic, Armenian, Hebrew, Arabic, Indic, Thai, Latin and Greek
**    Extended, punctuation, currency, symbols, CJK, kana, Hangul,
**    half/full width, the ligatures ﬀ ﬁ ﬂ of PDF text, U+FFFD, emoji,
**    the subscripts ᵢ ᵣ ᵤ ᵥ ᵦ..ᵪ ⱼ of mathematics, ʼ U+02BC of Ukrainian);
**    never IPA (but under cp1252 inside a transcription of no capitals,
**    "/É›/", doubtful: ipa_transcription()), combining marks (but under cp1252 an accent led by Ì on
**    a letter that takes it, inside a word or after a small letter:
**    decomposed text, "uÌˆber", the dot above lower-cased İ leaves on
**    an i, "iÌ‡brahim": nfd_mark()),
**    private use, rare scripts, code points unassigned in Greek, Armenian and
**    Hebrew ("×½" would be U+05FD), and a C1 control only as a continuation byte of a
**    deeper misreading ("Ã„Â" + U+008D is "Ä" + U+008D is "č"). A result
**    with more C1 controls than the input is thrown away whole.
** 4. Each candidate has a level of evidence:
**      2 (enough alone): 4 characters (ðŸ˜€) without an NBSP; 3
**        characters (â€™, ä¸­) unless they end like a word (rule below); 2 starting with Â or Ã
**        (Ã©, Â°); Ä or Å after a small ASCII letter (dÄ›kuji, liÅŸ);
**        È or Å then ™ › « before a small ASCII letter, not after a
**        word of capitals ("CeauÈ™escu", "È›ara": Romanian ș ț; "BÅ™ach"
**        ř), È then ™ › after one ("BabeÈ™"); Ä or Å then Œ or Ÿ
**        before one ("ÅŸu" şu, "ÄŒas" Čas); â then two giving an arrow,
**        a sign of mathematics, a box, a shape or a dingbat where no word
**        is read (sure_symbol3(): "âœ“" ✓, "â– " + NBSP ■); "ðŸ" then
**        two, with an NBSP last too (🏠);
**        the others not listed below (Ð¸, Îº, Ñƒ, ÐŸ).
**      1 (weak): 3 characters whose 2nd and 3rd are both marks that end
**        a word or cp1252 letters ("rç…»", "blíž”"); Ä Å then £ after a
**        capital, before a capital or at a word's end ("MÄ£ÄM": capitals
**        spelled with signs); 2 whose second is
**        such a mark (Ð», Î±, but also "Ó’"); 2 whose second is Š š Œ œ
**        Ž ž Ÿ after a capital other than Ó Ô Ú Ý.
**      0 (doubtful): an NBSP inside 3 or 4 characters (é + NBSP + «,
**        Icelandic "ð" + NBSP + "–" + NBSP); 3 at the end of a word after
**        its letters whose last is a quote or an ellipsis (” ’ » › … “ ‘
**        « ‹) and second one too, or š ž ("ví…“", "též“", "Café‘“",
**        "Olé‹«"), or whose second is a closing guillemet or quote after
**        a real opening mark or before a dash, an ellipsis, a quote or an
**        NBSP ("«Employé»—", "‹André›§", "›hiperfí‹—"; not "Bç«™", B站,
**        nor in CJK text), which alone in their run stay even when every other
**        character is misread; "Å²" "Å³" after no letter (ångström), "Ø"
**        or "×" then ¼ ½ ¾ (sizes), or × after a digit ("5×£35"), a
**        lead other than Â Ã then an NBSP, not giving Р or Π (Р5 is a
**        code), before a digit, or giving a letter of another script
**        than Latin before an ASCII letter or what starts no misread
**        character (nbsp_pair_apart(): "Ø" + NBSP + "100", "5 × 5 m",
**        "Hammarby × Djurgården" set with NBSPs, "EDICIÓ" + NBSP + "2"),
**        a capital then a dash before a digit giving a Latin letter (a
**        range: "3 Å–5 Å"), under cp1252 and Latin-1 a small letter
**        ending a word then an NBSP and a sign, or ® ™ and a closing
**        mark (sign_ends_word3(): "på" + NBSP + "– og", "Nescafé®’s";
**        not in a text with other misread CJK), and there a capital and
**        ® ™ … giving a letter of a script other than Latin and Greek,
**        ending a word of ASCII capitals ("KIADÓ®", "VIÐ…"; TNFα is
**        Greek's, КOЛ and MOЙ are Russian typed with Latin look-alikes),
**        which alone in their run stay and are taken no more readily
**        than other doubtful ones, or a capital, Ã (Ă) and ® ° • where
**        the word ends ("CAMPANHÃ®"), or "Ã’s" (a letter's plural),
**        which stay so too; a
**        capital then a closing mark ’ ” » › … – — ™, NBSP, or the
**        closing “ ‘ « of German and Czech quotes (‹ where a real ›
**        opens: its byte is Ë's), after a capital, at the end of a word
**        ("IRMÃ»", "VIÐ»", Turkish "HÂLÂ»", „JÄÄ“, »ABDÓ«), but not
**        "Â»" in a value with a misread opening "Â«" or "Â‹" (not after
**        a letter: »HÂLÂ« opens nothing); Ó Ô
**        Ö Ú Ý then Š Ž š ž ("ÚŽASNÝ", "Úžasný"; Õ inside a word,
**        Estonian "TALÕŠŠ"), which after an ASCII
**        character stay alone in their run even when every other
**        character is misread (Slovak "DOHÚŽVE", Hungarian "ERÖŠOVÁ").
** 5. A run with a level-2 candidate or two level-1 ones is fixed whole,
**    but for its level-0 candidates ("HYVÄÄ" + NBSP + "Å¾aba": the NBSP
**    joins a real word's end to the run).
**    Once one run is fixed so, the value is known to be misread: level-1
**    candidates of other runs are fixed too (only in a run wholly of
**    candidates: a character the reading cannot explain makes the run
**    another reading's, MacRoman's "—Ä–" beside cp1252 mojibake is no
**    Ė), and when every non-ASCII
**    character of the value is in a candidate (all misread, no real
**    accented text beside), the level-0 ones and rule 6 too; there, in a
**    value that shows Vietnamese ("áº", "Æ°", or "á»" and a third that is
**    no quote inside a syllable: viet_of()), "á»" and a quote at a word's
**    end after what may start a syllable ("Phá»‘" Phố; a closing quote
**    third, a capital Ổ Ồ, only after capitals), as rule 9 takes them
**    under cp1250. Any "á»" and a third only after ASCII letters that may
**    start a syllable, whatever is before them ("â€žbá»¥i", "#DuLá»‹ch":
**    from the capital of words run together), a capital only after a
**    capital (or after a word run together with it, in a value that
**    shows Vietnamese: "#ViệtNam" + "á»ž"); with a dash, an ellipsis or a soft hyphen third at a word's
**    end only in such a value or one with no real « before it
**    (viet_guard():
**    "«Ya está»—dijo", "Filarová»—" stay; "Nguyá»…n" is Nguyễn).
** 5b. In the writing pass of a value known misread, a word (ASCII letters
**    and digits and characters of the charset, up to a space, an ASCII
**    sign or a character the charset lacks) that holds a run fixed on
**    its own evidence, or fixed whole by a rescue giving a letter, is
**    misread throughout, in every charset: its other runs made wholly of
**    candidates are fixed too, whatever rule 8's and 9's narrower rescues
**    say ("ЕЅELEZNГќ" for ŽELEZNÝ: "ЕЅ" alone looks like Cyrillic
**    letters; MacRoman "·∏•" of ḥ beside a misread ā; cp1250 "Ä’"
**    starting "Ä’rberÄŁe"). Not a doubtful or a wild candidate, not a run
**    that gives an archaic or rare letter (odd_1251()) nor letters of two
**    scripts side by side; a sign the rescue undoes does not make its
**    word misread ("Ој—" is a Serbian word and a dash). A run holding a
**    character in no candidate ends the word (a real dash:
**    "píšťala—ĹľluĹĄ"), and a candidate holding what parts words is not
**    taken (parts_words(): MacRoman "–É" of "Zürich–Évian", "ȚARĂ" +
**    NBSP, Russian "О" + NBSP). A real word glued to misread text by
**    letters or digits alone, and a word only part of which is misread
**    ("PÄŤ" and a misread "Ý" in one word give Pč), are what the rule
**    gives up.
** 6. "Â" then a plain space is a non-breaking space (C2 A0 misread as
**    "Â" + NBSP whose NBSP then became a space): fixed when that Â is a
**    run of its own after an ASCII digit ("10Â km"; not "A/Â km"). So is
**    "Ã" then a space à (C3 A0): after an apostrophe ("jusqu'Ã"); after
**    a small letter where two spaces show the NBSP or in a value known
**    misread ("voilÃ le" beside "Ã©": an ASCII-only lower() writes
**    "irmÃ e"); as a word of its own where the NBSP shows in a value
**    known misread ("Ã s" for às; agrave_at_end()).
** 6b. So is a space after the lead of any other character whose last byte
**    is A0, in a value where nothing else is left out of the candidates
**    (x->a0_allowed; the other rules still see these leads as left out):
**    "Ð " + "ÑƒÑ" is Ру, "à¸ " + "à¸¹" Thai ภู, "×©× ×”" Hebrew שנה;
**    under cp1250 and cp1251 too ("Р " + "ѕСЃ" is Ро). Only a letter,
**    glued on both sides, of the script of the letter before it; at a
**    word's start only Р, Π and characters of three or four bytes, before
**    a word of their script and not a capital then a small letter
**    (lost_a0()): "VIÐ og", "PÅ TUR", "Å i Lofoten", "2 × Ã©", Russian
**    "О", a real "Р" before "Привет" stay, and "â€ " + A0 would be †.
**    The run glued after such a character, wholly of candidates of its
**    script, is undone with it (Hebrew "× " + "×•" of נו under cp1250).
** 7. Every fix shortens the text. Passes repeat (double encodings) while
**    one fixes something, at most UTF8_MOJI_MAX_DEPTH; each pass must be
**    confident on its own and reads the first pass's charset again
**    (cp1252 and latin1 count as one). The chain is the passes' charsets.
**    The result must be one a later call leaves alone: when a fresh
**    reading would change it again (another charset's: the value is
**    misread two ways, or one reading's leftovers look like another's),
**    nothing is done. At UTF8_MOJI_MAX_DEPTH passes the result stays
**    only when the same charset would go on (misread more often).
** 8. Windows-1251, tried only when the cp1252 pass finds nothing. Real
**    Russian, Ukrainian, Bulgarian and Serbian text is made of the very
**    characters this misreading produces, so the rule is stricter and
**    has no levels: a run (of characters with a cp1251 byte) is fixed
**    only when every one of its characters is inside a candidate and it
**    has two candidates at least ("РџСЂРёРІРµС‚"), not counting those that
**    give what no misread text is made of, and no two letters side by
**    side of two scripts (odd_1251(): Ukrainian "СІТІ" would give ѲҲ)
**    unless the run spells no Cyrillic word (mixed_no_word(): twice a
**    small letter then Р or С, as misread Cyrillic alternates them,
**    "РўРѕРєРёРѕжќ±дє¬" for Токио東京; nothing odd, no NBSP, no Latin
**    letter or glued code at its edge alone mixing it);
**    once one run is, runs of one candidate wholly consumed are fixed
**    too when it gives a letter of cp1251's languages (U+0400-045F) or
**    a sign ("РІ" for "в", "вЂ”" for —, an emoji "рџ™Њ"), not another
**    letter: real "Её" would give Ÿ, "Ті" ҳ, "Сі" the archaic ѳ; but a
**    lone CJK, kana or Hangul character standing apart ("зљ™" for 皙;
**    not "дії" of Ukrainian, nor "дІї" with a slip of Shift, nor "и…»";
**    "иѕЂ" is 辀: a small letter, then a capital of Serbian); and in a
**    value misread
**    throughout, one Greek letter alone, a symbol ("О±-частицы",
**    "10 Ојm": greek_1251(); not "О" + NBSP, the preposition, nor
**    Serbian "Ој" apart, nor Latin typed with look-alikes, "VLОЅ");
**    but a Latin letter or a sign when the run is glued to a Latin word
**    ("MГјller", "DVDВ»": no Cyrillic word is spelled with Latin
**    letters), not where Latin and Cyrillic letters that look alike are
**    mixed (glued_latin(): "PAДІO", "Гіpockoп", "«Канал TВ»", "Еіght"),
**    unless the run's second character is a sign no word holds ("Г§a"
**    for ça: inner_sign()) or the run is a capital then a small letter
**    after a Latin letter ("SГѓO" for SÃO: no Cyrillic word is so).
**    Latin text misread whole is sure without Russian beside: two such
**    runs at least inside Latin words giving Latin letters, the others
**    glued or misread punctuation, nothing else outside ASCII ("JГјrgen
**    MГјller"; not "Гђa Ana i Гђo", whose runs start their words); or one
**    that no Cyrillic text spells (sure_letter(): И then ™ › glued to
**    small letters, Romanian ș ț; Г or Д, or Е, then no look-alike of
**    a Latin letter, not a mark at a word's end, a small letter not
**    between capitals, not Д Е then a sign after a capital: "NIKЕ®" is
**    a look-alike; "MГјller" alone, "Г‡a", "KrakГіw"), which may be a
**    one-letter word apart too (apart_letter(): "Г©" for é, "ГЂ" À,
**    "Г" + NBSP + " " à: no Cyrillic word is Г or Д and such a letter,
**    nor NBSP then a space typography). When every non-ASCII character
**    of the value is in a candidate, "В»" is undone even where the
**    value's « is not misread ("Главная В» Новости": breadcrumbs;
**    «Витамин В» is real, but its « is in no candidate); so is a run of
**    one candidate giving a Latin letter of their case glued to ASCII
**    letters not all twins of Cyrillic ones, or whose sign is glued to a
**    letter after it ("KГ“MA" for KÓMA; not "CPЕЋA", typed on two
**    keyboards, "DЕЅIGN", Latin with look-alikes, "PSГЈ18", nor "Г" +
**    NBSP before a word). "KДЌ" after a number is Kč (czech_crowns()),
**    glued to its K whatever the K's twin. In Latin text misread whole
**    (x->latin_whole), runs that are no evidence alone do not keep it
**    from being undone, and are undone with it: "Е" + NBSP or Е and a
**    Serbian letter starting a word of one case (e_word_start(): "Е" +
**    NBSP + "KOLA" ŠKOLA, "ЕћEHIT" ŞEHIT; not before Title Case,
**    "Mercedes Е" + NBSP + "Class"), "ЕЅ" glued to ASCII letters
**    (e_twin_glued(): "SVEЕЅ" SVEŽ; alone, "DЕЅIGN" is look-alikes), "В"
**    + NBSP after S alone (the Czech preposition) and glued to a number
**    before a short unit or three digits ("75В" + NBSP + "m²"; not
**    "230В" + NBSP + "AC" or "ac", volts), a closing mark after S or J ending a
**    word ("OBSUSZAJД„C"; elsewhere codes end so: "SJИ›-80"), "В«"
**    "В»" apart in a value that opens a misread "В«", "В" + NBSP glued
**    after letters before a small one or after a number before "%", "KДЌ"
**    or a month, before French : ; ! ?, after an abbreviation's full stop
**    before a letter or a digit, between a telephone number's pairs or
**    thousands (nbsp_glued(), digit_groups(): "ZLATIBORACВ" + NBSP +
**    "a.d.", "9В" + NBSP + "ledna", "Tél.В" + NBSP + ": 01В" + NBSP +
**    "23", "odst.В" + NBSP + "2"; not "12В" + NBSP + "output" nor "230В"
**    + NBSP + "50 Hz", volts), "Е" + NBSP ending a word of capitals
**    (e_word_end(): "MILOЕ" + NBSP + " a.d." MILOŠ), "Д‚" glued to Latin
**    letters and "Е»" starting a word before them (Romanian Ă, Polish
**    Ż), Д and a Serbian letter starting a word whose letters are not all
**    twins (Č Ľ: "ДЊESKГЃ", "ДЅUPTГЃK"; not "ДЊECTAP", Serbian Дњестар
**    typed with look-alikes), a run glued after letters that follow a run
**    read as a Latin letter ("NГЃMДљSTГЌ"), Hungarian ő and Croatian đ
**    ("KЕ‘rГ¶si", "Д‘orД‘e"), Lithuanian Ė in a word of capitals
**    ("DД–MESIO"), Sàrl, IČO DIČ š.p. (latin_abbrev()), a sign that is
**    evidence alone (sign_alone(): "CHв‚ѓCOOH"), Turkish "A.Ећ.", × ÷
**    apart between numbers and "В»" before a letter where "В«" is in the
**    value too (latin_apart(): "3 Г— 4", German "В»MГјllerВ«"; also in a
**    value misread throughout, with × glued between numbers when no
**    other run is kept, "Лист 1250Г—2500 мм"; beside real Russian "кв.
**    12Г—14", "ЕЁ 12Г—14" and «Серия В»Bayer are real), and a
**    capital inside or starting a word of ASCII capitals that holds a
**    letter with no Cyrillic twin (caps_untwinned(): "BГ„CKEREI",
**    "ДЊAДЊANSKA"; not "PRICГ’Stock", nor "ABГ…TROMF" beside misread
**    Russian). "HГ" + NBSP + " " and "OГ№" + " " are Hà and Où whatever
**    the capital's twin. Apart before a
**    full stop, "ДЌ" "ДЊ" are Czech č Č ("Zákon ДЌ." for č.). A
**    Vietnamese letter counts as a Latin one (latin_like(): "dб»±ng" for
**    dựng), glued after a Latin letter ("69б»—Lviv" is a house number);
**    a Vietnamese capital after an ASCII capital whatever its twin ("THб»Љ"
**    for THỊ; not ending in an NBSP, closing mark or quote, nor beside
**    real text). "В" + NBSP after a space or
**    at the start is the preposition в bound to its word, never a
**    misread NBSP alone. A run that is one sign of
**    punctuation, currency or letterlike symbols ("вЂ”" for —, "в‚¬" €,
**    "в„–" №: в
**    then Ђ Ѓ ‚ „, which no word holds) is undone on its own, but does
**    not make the value known misread ("Ті вЂ”" gives "Ті —"); so is
**    an arrow, a box, a shape or a dingbat led by в (symbol_1251(): "в†’"
**    →, "вњ“" ✓) and an emoji ("рџ‘Ќ" for 👍: р then џ then a sign).
** 9. Windows-1250 and MacRoman, the strict charsets. Real Czech, Polish,
**    Hungarian and Romanian text is made of cp1250's characters, and
**    MacRoman's are the accented letters and dashes and quotes of every
**    Western text, so a candidate counts only when its lead is a
**    tell-tale: MacRoman ¬ √ ƒ ≈ ∆ ‚ and the Apple logo, or any lead of a
**    three-byte character (√©, ‚Äô, ÊÄó); cp1250 Â Ă Ä Ĺ â đ (Ă©, Ĺ™,
**    Ä›, â€ž); under cp1250 any lead followed by a C1 control of a byte
**    it leaves undefined (81 83 88 90 98, which decoders pass through as
**    the controls and no text holds: "Ń" + U+0083 у, "Č" + U+0098
**    Romanian Ș, "Ň" + U+0090 Ukrainian Ґ; in a value rule 1's filter
**    lets through on a lead of its table, whose scan does not look for
**    the controls: that cost prose 5% of its speed), and á then two giving a
**    Vietnamese letter, levels as cp1252's "á»‘" has them in rule 4
**    ("áş·" ặ sure, "á»‘" ố weak), or á, µ and a third giving a
**    subscript (sure: "xáµ˘" xᵢ); and Romanian ș ț inside a word,
**    cp1250's "Č™" "Č›" and
**    MacRoman's "»ô" "»õ" before a small letter (under MacRoman only
**    after a letter: »ôter« is German quotes) or after one ("BabeČ™"),
**    since no text puts ™ › inside a word or a guillemet between
**    letters. MacRoman's ‚ and cp1250's â then two giving an arrow, a
**    box, a shape or a dingbat are sure as in rule 4 ("‚Üí" →; not ‚
**    and two letters before a letter or a quote: Estonian "‚öö‘").
**    Levels as in rule 4, and: a capital, then cp1250's Â Ă Ä
**    Ĺ (capitals themselves) and a capital, is weak where a language
**    may write the pair (real_caps_pair(): Ă Ş, Ä Š Ž Ş Ť, Ĺ Ž Š, Â
**    and any; Romanian "PĂŞUNE", Slovak "PÄŤ", Turkmen "BÄŞ", Inari
**    Sami "ANARÂŠKIELÂ"; "FĂŠTE" is FÊTE), unless a small letter
**    follows ("MĂĽller": a word of capitals does not go on so); Ä then
**    a closing mark at the start of
**    a word is weak («Ä»); MacRoman's √π after no letter is weak (math), a three-byte
**    candidate not led by ‚ is weak (CJK needs two). Other leads make
**    candidates only in a run made wholly of candidates, two at least:
**    Cyrillic (MacRoman – —, cp1250 Đ Ń), Hebrew (◊, ×), CJK; Greek
**    (MacRoman Œ œ, cp1250 Î Ď) three at least; none for cp1250's Arabic
**    leads Ř Ů, Czech capitals ("ŘŠ", "ŮŽ").
**    Once a run is fixed so (the value is known misread as this charset),
**    the rescue is narrow: Greek runs of two candidates or more ("Ď„Îą",
**    "œÑŒπ" for τι; "ĎŠ" and "Œ±" are one, and real), a one-letter
**    Cyrillic word ("–∏" for и) once a Cyrillic run of the value was
**    fixed, and a lone CJK, kana or Hangul character standing apart
**    (lone_east_asian(): "çš™" for 皙, "Áöô" under MacRoman; not a letter
**    and two closing marks, "é…»"); under cp1250 "Ä›" before a small
**    letter (ě starting a word: a closing guillemet is glued to no letter
**    after it; alone, "Ä›uk" stays), and in a value misread throughout
**    (every non-ASCII character in a candidate) Ĺ then an NBSP between
**    ASCII capitals ("ZĹ" + NBSP + "HÄŚD" for ZŠHČD; not Ĺ then a
**    closing mark, Slovak "ODHAĹ…"; not Â, Turkish "HALÂ»", nor Ă,
**    "CASĂ"). Also under cp1250: weak Vietnamese letters ("á»‘" before a
**    letter: "Quá»‘c", or a space, a comma or the end; "Ć°" "Ćˇ" "ĆŻ", ư
**    ơ Ư) in a value that holds "áş" (ặ ả ấ) or "Ć°" "Ćˇ" "ĆŻ", or two
**    such letters inside syllables, doubtful ones at a word's end too; a
**    quote third at a word's end after what may start a syllable
**    (viet_onset(): not "«Allá»”", "Hvítá»‘"; a closing one, giving a
**    capital Ổ Ồ, only after capitals: "«Está lá»”"); not "á»" + a dash,
**    ellipsis or soft hyphen at a word's end nor without "áş":
**    "está»—dijo" is Spanish (spanish_mark()), "ÄŤ" as the č of Czech crowns
**    after a number ("3754,03 KÄŤ": czech_crowns(); Slovak "PÄŤ" is five),
**    "Ĺ‘" after a one-letter capital before a space (Hungarian "FĹ‘ utca"),
**    and in a value misread throughout "Â" + NBSP after a word of one
**    ASCII capital before a letter (a Czech preposition bound to its
**    word: "ZÂ" + NBSP + "Ostravy"; no word of one letter ends in Â),
**    in a value known misread "Ă" + NBSP (à) after a word not all
**    capitals ("Phố HĂ" + NBSP + "ng" Hàng; Romanian "CASĂ" + NBSP
**    stays), "Čš" at a word's start or after a capital (Romanian Ț: "Čšurcanu",
**    weak alone, since made-up words may start so), and one Greek letter
**    starting a word (a symbol: "Î» = 550 nm", "Î”H"; not MacRoman's
**    "Œ±", whose Œ starts French words). Under MacRoman, in a value
**    misread throughout (lone_mac(), each candidate of the run): ¬ then
**    ∑ ± ∞ (· ± °) with no letter beside, √∑ (÷) between numbers, ≈°
**    (š) before a full stop, √ ¬ ≈ then a closing mark ending a word of
**    capitals ("L√™" Lê), ‚ then two giving a sub- or superscript, a
**    currency sign, a letterlike symbol, an arrow, a sign of mathematics
**    or the narrow NBSP ("H‚ÇÇO", "‚Ç´" ₫; those of U+2070-U+20C0 not
**    before a small letter), one Greek letter starting a word but Œ
**    then a sign of mathematics unless the value holds two such ("ŒîH";
**    "Œ± + Œ≤": mac_greek_pairs()) or a misread Russian word (science:
**    "Œ±-—á–∞": mac_cyrillic_word()), one Cyrillic letter glued to a number before
**    no letter (a unit: "19283–ª"; not "A–Ü", "0–∞", "–π"), and "»ò"
**    "»ö" starting a word (Romanian Ș Ț, candidates only beside another
**    misread Romanian letter: x->romanian). Also under MacRoman, sure:
**    a middle dot then ∫ or ª and a third giving a Vietnamese letter
**    ("Ph·ªë" Phố; not ∫ then ∫ or ∂, physics: "∇·∫∫"), and "»ò" "»ö"
**    between ASCII letters beside another misread Romanian letter
**    ("BOTO»òANI"; German and Swedish glue » to ö: "Hem»öppettider").
**    Ukrainian Ґ ґ ("“ê", "Ň‘") are wild leads before another Cyrillic
**    lead, and ʼ (U+02BC) a candidate only right after another misread
**    character. A MacRoman tell-tale (not ƒ)
**    then a sign of mathematics (π ±
**    ∞ Ω ∑ ∫ µ ° ∂ ∏ ≤ ≥ ≠ ¬ √ ≈ ∆ ◊) is doubtful with no letter on either
**    side ("σ=√∑(x", "¬π"), ≈ so before a digit or a sign ("θ≈π/2"), and
**    a degree before C or F ("∆°C"); "¬´" after an ASCII sign but "."
**    with no letter after ("`¬´ ):" draws a face). One letter in quotes («Â», „Ä“) is
**    doubtful in every reading. MacRoman's ‚ lead is sure only for the punctuation and signs
**    text uses (‚Äô ’, ‚Ä¶ …, ‚Ç¨ €, ‚àö √), not "‚Ää" of Finnish in
**    German quotes (a hair space). Nothing else: weak candidates are what real text is made of
**    here (Slovak "PÄŤ", "DĹŽKA"; "–π" in mathematics; Estonian „Öösel“
**    would give ㅚ; Turkish "HÂLÂ»"), so "√π", "A–Ü", "PÄŤ" stay beside
**    a misread "Caf√©" or "pĹ™Ă­liĹˇ". As in rule 4, cp1250's "Â»" after
**    a capital is no word's end in a value whose opening "Â«" is misread
**    too ("Â«VĂťSTUPÂ»"; Turkish "HALÂ»" ends so, Romanian "RÂŞNOV"
**    holds ÂŞ: a wider rescue of Â and a sign changed them), nor in a
**    word that holds a run fixed on a sure candidate ("Â°CÂ»",
**    "DRĂ\x81HYÂ»": the word is misread, its end too; x->word_sure).
** 10. Which reading: each charset whose filter lets the value through is
**    counted; the one whose fixes take in the most characters wins, the
**    first of cp1252, cp1250, MacRoman, cp1251 on a tie (where two read
**    a run, their bytes are the same) unless a later one leaves fewer
**    characters out of its candidates ("METÄ€LLÄ’JÄ’JS IEKAISÄŞT": only
**    cp1250 reads "ÄŞ"); cp1251 only when cp1252 fixes nothing; a
**    confident reading is counted with its rescue (rule 5's for cp1252:
**    "SPOÅ»YWCZY Â· ul. WÄ…ska"; rule 9's, and in a value misread
**    throughout the doubtful candidates it undoes, for cp1250 and
**    MacRoman). When another reading has candidates, sure or not, taking
**    in more characters than the winner fixes, nothing is done: "Â§è" is
**    § to cp1252 but one character 夏 to MacRoman. When the chain that
**    starts with a tie's winner does not settle (rule 7), it is tried
**    once more without it: "CafÄ‚Â©" is é misread twice as cp1250, which
**    cp1252 reads alike once ("CafĂ©") and then cannot go on. A value
**    holding a C1 control that a charset would have read as a character
**    was not misread by it (foreign_c1(): ISO-8859-2's "tĹ" + U+0099).
*/
#include "mojibake.h"
#include "mojiscan.h"
#include "utf8.h"
#include "impl.h"

#include <stdatomic.h>
#include <string.h>

const char *utf8_moji_name(utf8_moji_charset cs){
  switch( cs ){
    case UTF8_MOJI_CP1252: return "cp1252";
    case UTF8_MOJI_LATIN1: return "latin1";
    case UTF8_MOJI_CP1251: return "cp1251";
    case UTF8_MOJI_CP1250: return "cp1250";
    case UTF8_MOJI_MACROMAN: return "macroman";
    case UTF8_MOJI_UTF16LE: return "utf-16le";
    case UTF8_MOJI_UTF16BE: return "utf-16be";
    case UTF8_MOJI_UTF32LE: return "utf-32le";
    case UTF8_MOJI_UTF32BE: return "utf-32be";
    case UTF8_MOJI_GB18030: return "gb18030";
    case UTF8_MOJI_SHIFT_JIS: return "shift_jis";
    case UTF8_MOJI_BIG5: return "big5";
    case UTF8_MOJI_EUC_KR: return "euc-kr";
    case UTF8_MOJI_CP1252_AS_LATIN1: return "cp1252-as-latin1";
    case UTF8_MOJI_CESU8_AS_CP1252: return "cesu8-as-cp1252";
    case UTF8_MOJI_CP1252_LOSSY: return "cp1252-lossy";
    case UTF8_MOJI_CP437: return "cp437";
    case UTF8_MOJI_CP1257: return "cp1257";
    case UTF8_MOJI_ISO8859_2: return "iso-8859-2";
    default: return "?";
  }
}

/*
** Rule 1: a candidate starts with a character U+00C2..U+00F4 (C3 82..C3 B4)
** followed by one whose byte is 80-BF: U+0080..U+00BF (C2 xx) or one of
** cp1252's 27 (C5, C6, CB or E2 lead bytes); rule 6 needs C3 82 then a
** space. Text without such a pair, clean accented text too, stops here.
*/
static int possible_1252(const unsigned char *s, size_t n){
  const unsigned char *p = s, *e = s+n;
  while( n>0 && (p = memchr(p, 0xC3, (size_t)(e-p)))!=0 ){
    if( e-p>=3 && p[1]>=0x82 && p[1]<=0xB4 ){
      unsigned b = p[2];
      if( b==0xC2 || b==0xC5 || b==0xC6 || b==0xCB || b==0xE2 ) return 1;
      if( b==' ' && (p[1]==0x82 || p[1]==0x83) ) return 1;   /* rule 6 */
    }
    p++;
  }
  return 0;
}

/*
** The byte cp is in charset cs, or -1 when cs has no byte for it. The
** cp1252 pass reads the union of cp1252 and latin1: the C1 controls
** U+0080..U+009F are their own bytes (for 81 8D 8F 90 9D that is WHATWG's
** cp1252; for the others only latin1 explains them, and a pass that needs
** one of those is named latin1).
*/
/* Windows-1251 bytes 80-BF as WHATWG maps them (98 is U+0098). */
static const uint16_t cp1251_high[64] = {
  0x0402,0x0403,0x201A,0x0453,0x201E,0x2026,0x2020,0x2021,
  0x20AC,0x2030,0x0409,0x2039,0x040A,0x040C,0x040B,0x040F,
  0x0452,0x2018,0x2019,0x201C,0x201D,0x2022,0x2013,0x2014,
  0x0098,0x2122,0x0459,0x203A,0x045A,0x045C,0x045B,0x045F,
  0x00A0,0x040E,0x045E,0x0408,0x00A4,0x0490,0x00A6,0x00A7,
  0x0401,0x00A9,0x0404,0x00AB,0x00AC,0x00AD,0x00AE,0x0407,
  0x00B0,0x00B1,0x0406,0x0456,0x0491,0x00B5,0x00B6,0x00B7,
  0x0451,0x2116,0x0454,0x00BB,0x0458,0x0405,0x0455,0x0457,
};

/* The same, sorted by character: (character, byte). */
static const uint16_t cp1251_rev[64][2] = {
  {0x0098,0x98},{0x00A0,0xA0},{0x00A4,0xA4},{0x00A6,0xA6},{0x00A7,0xA7},
  {0x00A9,0xA9},{0x00AB,0xAB},{0x00AC,0xAC},{0x00AD,0xAD},{0x00AE,0xAE},
  {0x00B0,0xB0},{0x00B1,0xB1},{0x00B5,0xB5},{0x00B6,0xB6},{0x00B7,0xB7},
  {0x00BB,0xBB},{0x0401,0xA8},{0x0402,0x80},{0x0403,0x81},{0x0404,0xAA},
  {0x0405,0xBD},{0x0406,0xB2},{0x0407,0xAF},{0x0408,0xA3},{0x0409,0x8A},
  {0x040A,0x8C},{0x040B,0x8E},{0x040C,0x8D},{0x040E,0xA1},{0x040F,0x8F},
  {0x0451,0xB8},{0x0452,0x90},{0x0453,0x83},{0x0454,0xBA},{0x0455,0xBE},
  {0x0456,0xB3},{0x0457,0xBF},{0x0458,0xBC},{0x0459,0x9A},{0x045A,0x9C},
  {0x045B,0x9E},{0x045C,0x9D},{0x045E,0xA2},{0x045F,0x9F},{0x0490,0xA5},
  {0x0491,0xB4},{0x2013,0x96},{0x2014,0x97},{0x2018,0x91},{0x2019,0x92},
  {0x201A,0x82},{0x201C,0x93},{0x201D,0x94},{0x201E,0x84},{0x2020,0x86},
  {0x2021,0x87},{0x2022,0x95},{0x2026,0x85},{0x2030,0x89},{0x2039,0x8B},
  {0x203A,0x9B},{0x20AC,0x88},{0x2116,0xB9},{0x2122,0x99},
};

/* The byte of cp in a reverse table of count rows sorted by character, or -1. */
static int enc_rev(const uint16_t (*rev)[2], int count, uint32_t cp){
  int lo = 0, hi = count-1;
  while( lo<=hi ){
    int mid = (lo+hi)/2;
    if( rev[mid][0]==cp ) return rev[mid][1];
    if( rev[mid][0]<cp ) lo = mid+1; else hi = mid-1;
  }
  return -1;
}

static int enc_1251(uint32_t cp){
  if( cp>=0x410 && cp<=0x44F ) return (int)(cp-0x410+0xC0);
  return enc_rev(cp1251_rev, 64, cp);
}

/* Windows-1250 bytes 80-FF as WHATWG maps them (81 83 88 90 98 are the
** C1 controls of the same value). */
static const uint16_t cp1250_high[128] = {
  0x20AC,0x0081,0x201A,0x0083,0x201E,0x2026,0x2020,0x2021,
  0x0088,0x2030,0x0160,0x2039,0x015A,0x0164,0x017D,0x0179,
  0x0090,0x2018,0x2019,0x201C,0x201D,0x2022,0x2013,0x2014,
  0x0098,0x2122,0x0161,0x203A,0x015B,0x0165,0x017E,0x017A,
  0x00A0,0x02C7,0x02D8,0x0141,0x00A4,0x0104,0x00A6,0x00A7,
  0x00A8,0x00A9,0x015E,0x00AB,0x00AC,0x00AD,0x00AE,0x017B,
  0x00B0,0x00B1,0x02DB,0x0142,0x00B4,0x00B5,0x00B6,0x00B7,
  0x00B8,0x0105,0x015F,0x00BB,0x013D,0x02DD,0x013E,0x017C,
  0x0154,0x00C1,0x00C2,0x0102,0x00C4,0x0139,0x0106,0x00C7,
  0x010C,0x00C9,0x0118,0x00CB,0x011A,0x00CD,0x00CE,0x010E,
  0x0110,0x0143,0x0147,0x00D3,0x00D4,0x0150,0x00D6,0x00D7,
  0x0158,0x016E,0x00DA,0x0170,0x00DC,0x00DD,0x0162,0x00DF,
  0x0155,0x00E1,0x00E2,0x0103,0x00E4,0x013A,0x0107,0x00E7,
  0x010D,0x00E9,0x0119,0x00EB,0x011B,0x00ED,0x00EE,0x010F,
  0x0111,0x0144,0x0148,0x00F3,0x00F4,0x0151,0x00F6,0x00F7,
  0x0159,0x016F,0x00FA,0x0171,0x00FC,0x00FD,0x0163,0x02D9,
};

/* Mac OS Roman bytes 80-FF (Apple's table since 1998: DB is the euro
** sign, F0 the Apple logo U+F8FF). */
static const uint16_t macroman_high[128] = {
  0x00C4,0x00C5,0x00C7,0x00C9,0x00D1,0x00D6,0x00DC,0x00E1,
  0x00E0,0x00E2,0x00E4,0x00E3,0x00E5,0x00E7,0x00E9,0x00E8,
  0x00EA,0x00EB,0x00ED,0x00EC,0x00EE,0x00EF,0x00F1,0x00F3,
  0x00F2,0x00F4,0x00F6,0x00F5,0x00FA,0x00F9,0x00FB,0x00FC,
  0x2020,0x00B0,0x00A2,0x00A3,0x00A7,0x2022,0x00B6,0x00DF,
  0x00AE,0x00A9,0x2122,0x00B4,0x00A8,0x2260,0x00C6,0x00D8,
  0x221E,0x00B1,0x2264,0x2265,0x00A5,0x00B5,0x2202,0x2211,
  0x220F,0x03C0,0x222B,0x00AA,0x00BA,0x03A9,0x00E6,0x00F8,
  0x00BF,0x00A1,0x00AC,0x221A,0x0192,0x2248,0x2206,0x00AB,
  0x00BB,0x2026,0x00A0,0x00C0,0x00C3,0x00D5,0x0152,0x0153,
  0x2013,0x2014,0x201C,0x201D,0x2018,0x2019,0x00F7,0x25CA,
  0x00FF,0x0178,0x2044,0x20AC,0x2039,0x203A,0xFB01,0xFB02,
  0x2021,0x00B7,0x201A,0x201E,0x2030,0x00C2,0x00CA,0x00C1,
  0x00CB,0x00C8,0x00CD,0x00CE,0x00CF,0x00CC,0x00D3,0x00D4,
  0xF8FF,0x00D2,0x00DA,0x00DB,0x00D9,0x0131,0x02C6,0x02DC,
  0x00AF,0x02D8,0x02D9,0x02DA,0x00B8,0x02DD,0x02DB,0x02C7,
};

/* The same tables the other way, sorted by character: (character, byte). */
static const uint16_t cp1250_rev[128][2] = {
  {0x0081,0x81},{0x0083,0x83},{0x0088,0x88},{0x0090,0x90},{0x0098,0x98},
  {0x00A0,0xA0},{0x00A4,0xA4},{0x00A6,0xA6},{0x00A7,0xA7},{0x00A8,0xA8},
  {0x00A9,0xA9},{0x00AB,0xAB},{0x00AC,0xAC},{0x00AD,0xAD},{0x00AE,0xAE},
  {0x00B0,0xB0},{0x00B1,0xB1},{0x00B4,0xB4},{0x00B5,0xB5},{0x00B6,0xB6},
  {0x00B7,0xB7},{0x00B8,0xB8},{0x00BB,0xBB},{0x00C1,0xC1},{0x00C2,0xC2},
  {0x00C4,0xC4},{0x00C7,0xC7},{0x00C9,0xC9},{0x00CB,0xCB},{0x00CD,0xCD},
  {0x00CE,0xCE},{0x00D3,0xD3},{0x00D4,0xD4},{0x00D6,0xD6},{0x00D7,0xD7},
  {0x00DA,0xDA},{0x00DC,0xDC},{0x00DD,0xDD},{0x00DF,0xDF},{0x00E1,0xE1},
  {0x00E2,0xE2},{0x00E4,0xE4},{0x00E7,0xE7},{0x00E9,0xE9},{0x00EB,0xEB},
  {0x00ED,0xED},{0x00EE,0xEE},{0x00F3,0xF3},{0x00F4,0xF4},{0x00F6,0xF6},
  {0x00F7,0xF7},{0x00FA,0xFA},{0x00FC,0xFC},{0x00FD,0xFD},{0x0102,0xC3},
  {0x0103,0xE3},{0x0104,0xA5},{0x0105,0xB9},{0x0106,0xC6},{0x0107,0xE6},
  {0x010C,0xC8},{0x010D,0xE8},{0x010E,0xCF},{0x010F,0xEF},{0x0110,0xD0},
  {0x0111,0xF0},{0x0118,0xCA},{0x0119,0xEA},{0x011A,0xCC},{0x011B,0xEC},
  {0x0139,0xC5},{0x013A,0xE5},{0x013D,0xBC},{0x013E,0xBE},{0x0141,0xA3},
  {0x0142,0xB3},{0x0143,0xD1},{0x0144,0xF1},{0x0147,0xD2},{0x0148,0xF2},
  {0x0150,0xD5},{0x0151,0xF5},{0x0154,0xC0},{0x0155,0xE0},{0x0158,0xD8},
  {0x0159,0xF8},{0x015A,0x8C},{0x015B,0x9C},{0x015E,0xAA},{0x015F,0xBA},
  {0x0160,0x8A},{0x0161,0x9A},{0x0162,0xDE},{0x0163,0xFE},{0x0164,0x8D},
  {0x0165,0x9D},{0x016E,0xD9},{0x016F,0xF9},{0x0170,0xDB},{0x0171,0xFB},
  {0x0179,0x8F},{0x017A,0x9F},{0x017B,0xAF},{0x017C,0xBF},{0x017D,0x8E},
  {0x017E,0x9E},{0x02C7,0xA1},{0x02D8,0xA2},{0x02D9,0xFF},{0x02DB,0xB2},
  {0x02DD,0xBD},{0x2013,0x96},{0x2014,0x97},{0x2018,0x91},{0x2019,0x92},
  {0x201A,0x82},{0x201C,0x93},{0x201D,0x94},{0x201E,0x84},{0x2020,0x86},
  {0x2021,0x87},{0x2022,0x95},{0x2026,0x85},{0x2030,0x89},{0x2039,0x8B},
  {0x203A,0x9B},{0x20AC,0x80},{0x2122,0x99},
};
static const uint16_t macroman_rev[128][2] = {
  {0x00A0,0xCA},{0x00A1,0xC1},{0x00A2,0xA2},{0x00A3,0xA3},{0x00A5,0xB4},
  {0x00A7,0xA4},{0x00A8,0xAC},{0x00A9,0xA9},{0x00AA,0xBB},{0x00AB,0xC7},
  {0x00AC,0xC2},{0x00AE,0xA8},{0x00AF,0xF8},{0x00B0,0xA1},{0x00B1,0xB1},
  {0x00B4,0xAB},{0x00B5,0xB5},{0x00B6,0xA6},{0x00B7,0xE1},{0x00B8,0xFC},
  {0x00BA,0xBC},{0x00BB,0xC8},{0x00BF,0xC0},{0x00C0,0xCB},{0x00C1,0xE7},
  {0x00C2,0xE5},{0x00C3,0xCC},{0x00C4,0x80},{0x00C5,0x81},{0x00C6,0xAE},
  {0x00C7,0x82},{0x00C8,0xE9},{0x00C9,0x83},{0x00CA,0xE6},{0x00CB,0xE8},
  {0x00CC,0xED},{0x00CD,0xEA},{0x00CE,0xEB},{0x00CF,0xEC},{0x00D1,0x84},
  {0x00D2,0xF1},{0x00D3,0xEE},{0x00D4,0xEF},{0x00D5,0xCD},{0x00D6,0x85},
  {0x00D8,0xAF},{0x00D9,0xF4},{0x00DA,0xF2},{0x00DB,0xF3},{0x00DC,0x86},
  {0x00DF,0xA7},{0x00E0,0x88},{0x00E1,0x87},{0x00E2,0x89},{0x00E3,0x8B},
  {0x00E4,0x8A},{0x00E5,0x8C},{0x00E6,0xBE},{0x00E7,0x8D},{0x00E8,0x8F},
  {0x00E9,0x8E},{0x00EA,0x90},{0x00EB,0x91},{0x00EC,0x93},{0x00ED,0x92},
  {0x00EE,0x94},{0x00EF,0x95},{0x00F1,0x96},{0x00F2,0x98},{0x00F3,0x97},
  {0x00F4,0x99},{0x00F5,0x9B},{0x00F6,0x9A},{0x00F7,0xD6},{0x00F8,0xBF},
  {0x00F9,0x9D},{0x00FA,0x9C},{0x00FB,0x9E},{0x00FC,0x9F},{0x00FF,0xD8},
  {0x0131,0xF5},{0x0152,0xCE},{0x0153,0xCF},{0x0178,0xD9},{0x0192,0xC4},
  {0x02C6,0xF6},{0x02C7,0xFF},{0x02D8,0xF9},{0x02D9,0xFA},{0x02DA,0xFB},
  {0x02DB,0xFE},{0x02DC,0xF7},{0x02DD,0xFD},{0x03A9,0xBD},{0x03C0,0xB9},
  {0x2013,0xD0},{0x2014,0xD1},{0x2018,0xD4},{0x2019,0xD5},{0x201A,0xE2},
  {0x201C,0xD2},{0x201D,0xD3},{0x201E,0xE3},{0x2020,0xA0},{0x2021,0xE0},
  {0x2022,0xA5},{0x2026,0xC9},{0x2030,0xE4},{0x2039,0xDC},{0x203A,0xDD},
  {0x2044,0xDA},{0x20AC,0xDB},{0x2122,0xAA},{0x2202,0xB6},{0x2206,0xC6},
  {0x220F,0xB8},{0x2211,0xB7},{0x221A,0xC3},{0x221E,0xB0},{0x222B,0xBA},
  {0x2248,0xC5},{0x2260,0xAD},{0x2264,0xB2},{0x2265,0xB3},{0x25CA,0xD7},
  {0xF8FF,0xF0},{0xFB01,0xDE},{0xFB02,0xDF},
};

uint32_t utf8_moji_decode_byte(utf8_moji_charset cs, unsigned b){
  if( b<0x80 ) return b;
  switch( cs ){
    case UTF8_MOJI_CP1252: return b<0xA0 ? utf8_cp1252_80_9f[b-0x80] : b;
    case UTF8_MOJI_CP1251: return b>=0xC0 ? 0x410+(b-0xC0) : cp1251_high[b-0x80];
    case UTF8_MOJI_CP1250: return cp1250_high[b-0x80];
    case UTF8_MOJI_MACROMAN: return macroman_high[b-0x80];
    default: return b;                  /* latin1 */
  }
}

/* The byte of cp in cs, or -1, by the tables above (enc_byte() reads it
** from enc_direct instead wherever it can). */
static int enc_byte_search(utf8_moji_charset cs, uint32_t cp){
  if( cp<0x80 ) return (int)cp;
  if( cs==UTF8_MOJI_CP1251 ) return enc_1251(cp);
  if( cs==UTF8_MOJI_CP1250 ) return enc_rev(cp1250_rev, 128, cp);
  if( cs==UTF8_MOJI_MACROMAN ) return enc_rev(macroman_rev, 128, cp);
  if( cs==UTF8_MOJI_LATIN1 || cp<=0xFF ) return cp<=0xFF ? (int)cp : -1;
  switch( cp ){
    case 0x20AC: return 0x80; case 0x201A: return 0x82; case 0x0192: return 0x83;
    case 0x201E: return 0x84; case 0x2026: return 0x85; case 0x2020: return 0x86;
    case 0x2021: return 0x87; case 0x02C6: return 0x88; case 0x2030: return 0x89;
    case 0x0160: return 0x8A; case 0x2039: return 0x8B; case 0x0152: return 0x8C;
    case 0x017D: return 0x8E; case 0x2018: return 0x91; case 0x2019: return 0x92;
    case 0x201C: return 0x93; case 0x201D: return 0x94; case 0x2022: return 0x95;
    case 0x2013: return 0x96; case 0x2014: return 0x97; case 0x02DC: return 0x98;
    case 0x2122: return 0x99; case 0x0161: return 0x9A; case 0x203A: return 0x9B;
    case 0x0153: return 0x9C; case 0x017E: return 0x9E; case 0x0178: return 0x9F;
  }
  return -1;
}

/*
** enc_byte() is called for every character of every run in every pass
** (five charsets, their rescues, the writing pass): a binary search or a
** switch there was a quarter of utf8_unmojibake's time on mojibake. So
** the answers for the characters below ENC_DIRECT (all but MacRoman's
** Apple logo and fi fl ligatures) are read from a table, built once from
** enc_byte_search() itself, so that the two cannot disagree: the byte, or
** 0 for none (no character from 80 up is byte 0).
**
** Built at the first call, by the thread whose compare-and-swap moves
** enc_state from 0 to 1; it publishes the table by storing 2 (release),
** and every reader loads enc_state (acquire) before reading it. A thread
** that finds 1 builds nothing: it searches (the same answers) until it
** sees 2.
*/
#define ENC_DIRECT 0x2600
static unsigned char enc_direct[UTF8_MOJI_COUNT][ENC_DIRECT];
static atomic_int enc_state;

static __attribute__((noinline,cold)) int enc_build(void){
  int expected = 0, cs;
  uint32_t cp;
  if( !atomic_compare_exchange_strong(&enc_state, &expected, 1) ) return 0;
  for(cs=0; cs<UTF8_MOJI_COUNT; cs++){
    for(cp=0x80; cp<ENC_DIRECT; cp++){
      int b = enc_byte_search((utf8_moji_charset)cs, cp);
      enc_direct[cs][cp] = (unsigned char)(b<0 ? 0 : b);
    }
  }
  atomic_store_explicit(&enc_state, 2, memory_order_release);
  return 1;
}

/* The byte of cp in cs, or -1: what enc_byte_search() says. */
static int enc_byte(utf8_moji_charset cs, uint32_t cp){
  if( cp<0x80 ) return (int)cp;
  if( cp<ENC_DIRECT && (unsigned)cs<UTF8_MOJI_COUNT
   && (atomic_load_explicit(&enc_state, memory_order_acquire)==2 || enc_build()) ){
    int b = enc_direct[cs][cp];
    return b ? b : -1;
  }
  return enc_byte_search(cs, cp);
}

/* For the tests: enc_byte() as the engine reads it (the table), and the
** search it was built from. */
int utf8_moji_encode_char(utf8_moji_charset cs, uint32_t cp, int searched){
  return searched ? enc_byte_search(cs, cp) : enc_byte(cs, cp);
}

/* Rule 3: a character real text uses. */
static int plausible(uint32_t d){
  if( d<0xA0 ) return 0;                           /* C1 controls */
  if( d<=0x17F ) return 1;                         /* Latin-1, Extended-A */
  if( d==0x192 || d==0x2C6 || d==0x2DC ) return 1; /* ƒ ˆ ˜: cp1252 has them */
  if( d<=0x24F ){                                  /* Extended-B: a few */
    return (d>=0x218 && d<=0x21B) || d==0x1A0 || d==0x1A1 || d==0x1AF || d==0x1B0;
  }
  if( d==0x2BC ) return 1;                         /* ʼ, Ukrainian's apostrophe */
  if( d<0x370 ) return 0;                          /* IPA, modifiers, combining */
  if( (d>=0x483 && d<=0x489) || (d>=0x591 && d<=0x5C7) || (d>=0x610 && d<=0x61A)
   || (d>=0x64B && d<=0x65F) ) return 0;           /* their combining marks */
  /* unassigned in Greek, Armenian and Hebrew ("×½" would be U+05FD) */
  if( (d>=0x378 && d<=0x379) || (d>=0x380 && d<=0x383) || d==0x38B || d==0x38D
   || d==0x3A2 || (d>=0x557 && d<=0x558) || (d>=0x58B && d<=0x58C)
   || (d>=0x5C8 && d<=0x5CF) || (d>=0x5EB && d<=0x5EE) || (d>=0x5F5 && d<=0x5FF) ) return 0;
  if( d<=0x6FF ) return 1;                         /* Greek .. Arabic */
  if( d>=0x900 && d<=0xE7F ) return 1;             /* Indic, Thai */
  if( (d>=0x1D62 && d<=0x1D6A) || d==0x2C7C ) return 1;  /* subscripts ᵢ ᵣ ᵤ ᵥ ⱼ of
                                                   ** mathematics ("xáµ¢" for xᵢ) */
  if( d>=0x1E00 && d<=0x1FFF ) return 1;           /* Latin/Greek additional */
  if( d>=0x2000 && d<=0x27BF ) return d!=0x2028 && d!=0x2029;
  if( d>=0x2B00 && d<=0x2BFF ) return 1;
  if( d>=0x3000 && d<=0x9FFF ) return 1;           /* CJK, kana */
  if( d>=0xAC00 && d<=0xD7A3 ) return 1;           /* Hangul */
  if( d>=0xFB00 && d<=0xFB06 ) return 1;           /* ﬀ ﬁ ﬂ of PDF text */
  if( d>=0xFF00 && d<=0xFFEF ) return 1;           /* half/full width */
  if( d==0xFFFD ) return 1;
  if( d>=0x1F000 && d<=0x1FAFF ) return 1;         /* emoji */
  if( d>=0x20000 && d<=0x2FFFF ) return 1;         /* CJK extensions */
  return 0;
}

static int is_ascii_alpha(uint32_t c){
  return (c|0x20)>='a' && (c|0x20)<='z';
}
static int is_ascii_alnum(uint32_t c){
  return is_ascii_alpha(c) || (c>='0' && c<='9');
}
static int is_ascii_small(uint32_t c){
  return c>='a' && c<='z';
}
static int is_upper(uint32_t c){
  return (c>='A' && c<='Z') || (c>=0xC0 && c<=0xDE && c!=0xD7)
      || c==0x160 || c==0x152 || c==0x17D || c==0x178;
}
/* ’ ” » › … – — ™: what closes a word (rule 4's "IRMÃ»"). */
static int is_closing(uint32_t c){
  return c==0x2019 || c==0x201D || c==0xBB || c==0x203A || c==0x2026
      || c==0x2013 || c==0x2014 || c==0x2122;
}
/* What follows a sign in mathematics and not a word: a digit or an ASCII
** sign other than space and sentence punctuation. */
static int math_next(unsigned char c){
  return (c>='0' && c<='9') || (c>0x20 && c<0x7F && !is_ascii_alpha(c)
      && c!='.' && c!=',' && c!=';' && c!=':' && c!='!' && c!='?' && c!='"'
      && c!='\'' && c!=')');
}
/* Part of a word, as far as a neighbour of a misread letter shows: a
** letter, or any non-ASCII character (the next misread letter). */
static int in_word(uint32_t c){
  return is_ascii_alpha(c) || c>=0x80;
}
/* Any quotation mark: « » „ “ ” ‚ ‘ ’ ‹ ›. */
static int any_quote(uint32_t c){
  return c==0xAB || c==0xBB || c==0x201E || c==0x201C || c==0x201D || c==0x201A
      || c==0x2018 || c==0x2019 || c==0x2039 || c==0x203A;
}
/* MacRoman's signs of mathematics: π ± ∞ Ω ∑ ∫ µ ° ∂ ∏ ≤ ≥ ≠ ¬ √ ≈ ∆ ◊. */
static int mac_math(uint32_t c){
  return c==0x3C0 || c==0xB1 || c==0x221E || c==0x2126 || c==0x2211 || c==0x222B
      || c==0xB5 || c==0xB0 || c==0x2202 || c==0x220F || c==0x2264 || c==0x2265
      || c==0x2260 || c==0xAC || c==0x221A || c==0x2248 || c==0x2206 || c==0x25CA;
}
/* The punctuation, currency and signs of U+2000-U+2FFF that text uses,
** and MacRoman's own (a double misreading goes through them: "√∂" for ö
** read again is "‚àö‚àÇ"); not ‧ (U+2027): "‚Äße" is German äße in
** low quotes. */
static int common_punct(uint32_t d){
  return (d>=0x2010 && d<=0x2026) || (d>=0x2030 && d<=0x203A) || d==0x2044
      || d==0x20AC || d==0x2116 || d==0x2122 || d==0x2126 || d==0x2202
      || d==0x2206 || d==0x220F || d==0x2211 || d==0x221A || d==0x221E
      || d==0x222B || d==0x2248 || d==0x2260 || d==0x2264 || d==0x2265
      || d==0x25CA;
}
/* “ ‘ « ‹: what closes a quote in German, Czech, Danish („…“, ‚…‘,
** »…«, ›…‹) though English and French open with them. */
static int quote_mark(uint32_t c){
  return c==0x201C || c==0x2018 || c==0xAB || c==0x2039;
}
/* The quotes and the ellipsis a word ends with, in some language: ” ’ »
** › … and “ ‘ « ‹ ("ví…“", "Olé‹«"; with š or ž before: "též“"), after
** the letters of the word (a misread CJK character is a word of its own,
** " è…«" for 腫). Not • ‰ ° or dashes, which the misread CJK characters
** end with as often ("æ‰•" for 払), nor œ Ÿ before ("æœ“" for 朓). */
static int end_mark(uint32_t c){
  return quote_mark(c) || c==0x201D || c==0x2019 || c==0xBB || c==0x203A
      || c==0x2026;
}
/* What real text puts right after a word: the closing marks, « (which
** closes German quotes; not ‹, cp1252's byte of ы in "Ñ‹"), NBSP and the
** usual symbols. */
static int after_word(uint32_t c){
  return is_closing(c) || c==0xA0 || c==0xAB || c==0xAE || c==0xB0 || c==0xB2
      || c==0xB3 || c==0xB9 || c==0xB7 || c==0x2022 || c==0x2030;
}
/* The letters among cp1252's bytes 80-9F: Š š Œ œ Ž ž Ÿ. */
static int cp1252_letter(uint32_t c){
  return c==0x160 || c==0x161 || c==0x152 || c==0x153 || c==0x17D
      || c==0x17E || c==0x178;
}

typedef struct pass_ctx pass_ctx;
struct pass_ctx {
  const unsigned char *s;   /* the text of this pass (may be out itself) */
  size_t n;
  utf8_moji_charset cs;
  int rescue;               /* rule 5's second half: 1 the weak candidates,
                            ** 2 all of them (every character misread) */
  size_t leftover;          /* non-ASCII characters in no candidate */
  unsigned char *out;       /* NULL: only count */
  size_t o;
  uint32_t prev;            /* the source character before the position */
  size_t confident;         /* runs fixed on their own evidence */
  size_t cyrillic;          /* of those, runs of Cyrillic (rule 9's rescue) */
  size_t rescuable;         /* runs not fixed that rule 9's rescue may take */
  size_t glued;             /* cp1251: runs glued to a Latin word that would
                            ** give a Latin letter or a sign (rule 8) */
  size_t runs;              /* cp1251: runs */
  size_t plain;             /* cp1251: of those, one glued candidate or
                            ** misread punctuation, wholly */
  size_t signs;             /* cp1251: of those, a sign no text holds but
                            ** misread ("вЂ”", "10 В°C": sign_alone()) */
  int latin_whole;          /* cp1251: read as Latin text misread whole
                            ** (best_pass()), no Russian beside */
  size_t sure;              /* cp1251: of those, a Latin letter that no
                            ** Cyrillic text spells (sure_letter()) */
  size_t missed;            /* cp1251: characters of runs in no candidate */
  int opened;               /* the text holds a misread "Â«" or "Â‹" (cp1251: "В«") */
  int lowered;              /* cp1252: the text holds "Ã " and was lowered by an
                            ** ASCII-only lower() (ascii_lowered()) */
  int single_open;          /* the text holds a real › (German ›…‹ quotes) */
  int mac_greek;            /* MacRoman: the text holds two Greek letters
                            ** or more misread as Œ then a sign of
                            ** mathematics, apart (mac_greek_pairs()),
                            ** or a misread Russian word beside one
                            ** (mac_cyrillic_word()) */
  int romanian;             /* MacRoman: the text holds ă Ă ș ț misread
                            ** ("ƒÉ" "ƒÇ" "»ô" "»õ": mac_romanian()) */
  int viet;                 /* cp1250: 2 the text holds "áş", the lead of
                            ** a Vietnamese letter (ặ ả ấ) no text spells;
                            ** 1 only "Ć°" "Ćˇ" "ĆŻ" (ư ơ Ư misread);
                            ** 3 only two letters "á»" + a third (cp1252
                            ** the same: viet_of()) */
  size_t vpos[32];          /* where "á»" starts, read before writing (out
                            ** may be s and overwrite what comes before) */
  unsigned char vflag[32];  /* there: 1 viet_onset(), 2 no small letter
                            ** before it in its word (caps_before()) */
  size_t nv;                /* how many; more than 32: read in place */
  size_t guillemet;         /* where the first real « is (not a misread
                            ** "Â«"), n: none; read before writing */
  size_t opener;            /* where the first real opening mark is (« ‹ » ›
                            ** “ „ ‘ ‚ after an ASCII character or at the
                            ** start), n: none; read before writing */
  int times_ok;             /* cp1251: × ÷ glued between numbers may be
                            ** undone (chain_of(): a value misread
                            ** throughout whose other runs are all undone) */
  size_t kept;              /* runs with candidates left as they were */
  int cjk;                  /* cp1252, Latin-1: the text holds a misread
                            ** CJK character (misread_cjk()); -1: not read
                            ** yet (a counting pass reads it when
                            ** sign_ends_word3() first asks) */
  int cjk_other;            /* cp1252: the text holds misread CJK whose
                            ** second character is no closing mark
                            ** (misread_cjk_other()); -1: not read yet */
  int word_sure;            /* cp1250, MacRoman: the word at hand holds a run
                            ** fixed on a sure candidate ("Â°CÂ»") */
  int word_misread;         /* the word at hand holds a run fixed whole before
                            ** the position (rule 5b) */
  size_t ahead_end;         /* rule 5b's look-ahead: the end of the word it */
  size_t ahead_last;        /* read, the end of its last run fixed whole
                            ** (0: none) */
  int looking_ahead;        /* this is a copy reading ahead (rule 5b): no more */
  int after_a0;             /* the last run ended in rule 6b's character */
  size_t word_fixed;        /* runs fixed whole that make their word misread */
  int run_whole;            /* the last run was wholly made of candidates */
  size_t latin_end;         /* cp1251: the end of the last run read as a
                            ** Latin letter glued to a Latin word (0: none) */
  int after_latin;          /* cp1251: the ASCII letters before the run at
                            ** hand follow such a run (read before they
                            ** are written: out may be s) */
  size_t a0_chars;          /* characters of rule 6b's tails, counted in
                            ** leftover or missed */
  int a0_allowed;           /* rule 6b may undo them: nothing else is left */
  size_t fixes;             /* changes made (or that would be) */
  size_t explained;         /* the characters those changes took in */
  size_t potential;         /* the characters of all candidates, sure or not */
  size_t reach;             /* the same with cp1250's Vietnamese letters that
                            ** cp1252 reads alike: the most it may explain */
  int latin1;               /* a fix needed a C1 control cp1252 lacks */
};

/* A candidate at s[i]: its decoded character and where it ends. */
typedef struct cand {
  uint32_t d;
  size_t end;
  uint32_t second;          /* its second source character */
  uint32_t last;            /* its last source character */
  int c1;                   /* it has a C1 control that only latin1 has */
  int nchars;               /* its characters, 2 to 4 */
  int level;     /* 2: enough alone; 1: two in a run; 0: only with others */
  int word_end;  /* level 0 that real text looks like alone ("ví…“", "Å²"):
                 ** fixed only among other candidates of its run; 2: and
                 ** only where every character is misread, as level 0
                 ** (a real sign beside misread text: "5 × 5 m") */
} cand;

/* Start or end of text, or ASCII that is not a letter or digit. */
static int apart(uint32_t c){
  return c<0x80 && !is_ascii_alnum(c);
}

/* Rule 9: Windows-1250 and MacRoman are the strict charsets. */
static int strict_cs(utf8_moji_charset cs){
  return cs==UTF8_MOJI_CP1250 || cs==UTF8_MOJI_MACROMAN;
}

/*
** Rule 3 for a deeper misreading in a strict charset: a character of its
** own that no text uses alone, which the next pass reads back: one of
** bytes 80-BF after a lead (cp1250's ˛ of "Đ˛", в misread twice), or
** MacRoman's Apple logo (F0, the lead of every emoji misread twice).
*/
static int deeper_strict(utf8_moji_charset cs, uint32_t d, int pending){
  int b;
  if( !strict_cs(cs) ) return 0;
  if( cs==UTF8_MOJI_MACROMAN && d==0xF8FF ) return 1;
  b = enc_byte(cs, d);
  return pending>0 && b>=0x80 && b<=0xBF;
}

/* A letter of Latin-1 or Latin Extended-A/B (no × ÷). */
static int latin_letter(uint32_t c){
  return c>=0xC0 && c<=0x24F && c!=0xD7 && c!=0xF7;
}
/* A letter: ASCII, or latin_letter(). */
static int letter(uint32_t c){
  return is_ascii_alpha(c) || latin_letter(c);
}
/* A capital: ASCII, Latin-1, and Extended-A's (they alternate, capital
** first, except in U+0139..U+0148 and U+0179..U+017E). */
static int upper_ext(uint32_t c){
  if( is_upper(c) ) return 1;
  if( c>=0x100 && c<=0x17F && c!=0x138 && c!=0x149 && c!=0x17F ){
    if( (c>=0x139 && c<=0x148) || (c>=0x179 && c<=0x17E) ) return c&1;
    return !(c&1);
  }
  /* Romanian's Ș Ț, Vietnamese Ơ Ư ("«MÂȚĂ»" is a word of capitals) */
  return c==0x218 || c==0x21A || c==0x1A0 || c==0x1AF;
}


static int word_ends(const struct pass_ctx *x, size_t j, uint32_t mark);
static int digits_around(const struct pass_ctx *x, size_t i, size_t j);
static int letter_at(const struct pass_ctx *x, size_t j);
static int in_word_at(const struct pass_ctx *x, size_t k);
static int small_at(const struct pass_ctx *x, size_t j);
static int ends_word3(const struct pass_ctx *x, uint32_t prev, uint32_t second,
                      uint32_t last, size_t j);
static int wild_lead(utf8_moji_charset cs, int b0);
static int level3(const struct pass_ctx *x, uint32_t prev, uint32_t second,
                  uint32_t last, size_t j);
static int sure_symbol3(const struct pass_ctx *x, uint32_t d, uint32_t prev,
                        uint32_t second, uint32_t last, size_t j);
static int lowered_capital_end(const struct pass_ctx *x, int b0, uint32_t prev, uint32_t d,
                               uint32_t last, size_t j);
/* Rule 4: a word of capitals ending in Ã (cp1250's Ă) then a sign that
** follows words, ® ° • ("CAMPANHÃ®", "EUROPĂ°"), ends there: misread
** it would give î ð Õ, small letters or a capital no word ends with,
** after capitals (not ‰: "CAFÃ‰" is CAFÉ; not Â: "NÂ°" is N°). */
static int sign_after_a_tilde(int b0, uint32_t last){
  return b0==0xC3 && (last==0xAE || last==0xB0 || last==0x2022);
}

/*
** cp1250's capitals Â Ă Ä Ĺ (leads C2-C5) followed by a capital of bytes
** 80-BF that some language may write so: Ä before Š Ž Ş Ť (Slovak "PÄŤ",
** Turkmen "BÄŞ", Sami), Ĺ before Ž Š (Slovak "DĹŽKA"), Ă before Ş
** (Romanian with the cedilla, "PĂŞUNE"), Â before any (Inari Sami
** "ANARÂŠKIELÂ", Romanian "RÂŞNOV"; Â and a capital give only a sign or
** a C1 control). No language of 32 Debian hunspell word lists writes
** another such pair in capitals: "ĂŠ" "ĂŤ" "ÄŚ" are Ê Í Č misread.
*/
/* Vietnamese's letters of Latin Extended Additional (ạ .. ỹ). */
static int viet_letter(uint32_t d){
  return d>=0x1EA0 && d<=0x1EF9;
}
/* What a word in guillemets may put after "á»" (á, », then a dash, an
** ellipsis or a soft hyphen: Spanish "«Ya está»—dijo", "está»…"), which
** cp1250 reads as a Vietnamese letter (ỗ Ỗ ễ); Vietnamese Ễ and ễ at a
** word's end are given up with them. A quote there ("Phá»‘" Phố,
** "Thá»‹" Thị, "Há»“" Hồ) is read in a value that holds Vietnamese. */
static int spanish_mark(uint32_t u){
  return u==0x2013 || u==0x2014 || u==0x2026 || u==0xAD;
}
/* Is s[0..i) up to the "á" at i the start of a Vietnamese syllable: no
** letter, or a consonant or two (ngh, ng, nh, ph, th, tr, ch, kh, gh,
** gi, qu, or one of b c d g h k l m n p r s t v x) then perhaps one of u i o
** y, after a medial u or o too ("Nguyá»…n"), or a misread letter glued
** before ("Ä‘á»‘c" đốc)? Spanish and
** Portuguese words that end in "á" and a guillemet are not ("está»”",
** "Allá»”", "Bogotá»’"), nor Hungarian ones ("Anná»“"). */
static int viet_consonants(const char *w, size_t n){
  static const char *const clusters[] = { "ngh", "ng", "nh", "ph", "th", "tr", "ch",
                                          "kh", "gh", "gi", "qu" };
  size_t c;
  if( n==0 ) return 1;
  if( n==1 ) return strchr("bcdghklmnprstvx", w[0])!=0;
  for(c=0; c<sizeof(clusters)/sizeof(clusters[0]); c++){
    if( strcmp(clusters[c], w)==0 ) return 1;
  }
  return 0;
}
static int viet_letters(const unsigned char *s, size_t k, size_t i);
static int viet_onset(const unsigned char *s, size_t i){
  size_t k = i;
  while( k>0 && is_ascii_alpha(s[k-1]) && i-k<12 ) k--;
  if( k>0 && is_ascii_alpha(s[k-1]) ) return 0;           /* too long */
  if( k>0 && s[k-1]>=0x80 ){
    /* only a misread đ or Đ glued before ("Ä‘", "Ä" + U+0090): a real
    ** accented letter makes the word another language's ("Hvítá»‘"), and
    ** a word opened by a quote or a guillemet is quoted ("«Lá»”"), a
    ** short word of Portuguese or Spanish as often as Vietnamese */
    if( k>=5 && memcmp(s+k-5, "\xC3\x84\xE2\x80\x98", 5)==0 ) return 1;
    if( k>=4 && s[k-4]==0xC3 && s[k-3]==0x84 && s[k-2]==0xC2
     && (s[k-1]==0x90 || s[k-1]==0x91) ) return 1;        /* Đ, Latin-1's đ */
    /* ư Ư misread before ("TrÆ°á»\x9dng", "NGÆ¯á»œI": the first vowel of
    ** ươ), under cp1252 or cp1250 */
    if( k>=4 && s[k-4]==0xC3 && s[k-3]==0x86 && s[k-2]==0xC2 && (s[k-1]==0xB0 || s[k-1]==0xAF) ) return 1;
    if( k>=4 && s[k-4]==0xC4 && s[k-3]==0x86 && ((s[k-2]==0xC2 && s[k-1]==0xB0)
                                                 || (s[k-2]==0xC5 && s[k-1]==0xBB)) ) return 1;
    /* or đ Đ ư Ư already undone: a deeper pass writes over what it read */
    return k>=2 && ((s[k-2]==0xC4 && (s[k-1]==0x90 || s[k-1]==0x91))
                    || (s[k-2]==0xC6 && (s[k-1]==0xB0 || s[k-1]==0xAF)));
  }
  if( k>0 && (s[k-1]=='"' || s[k-1]=='\'') ) return 0;
  return viet_letters(s, k, i);
}
/* Are the ASCII letters s[k..i) before an "á" what may start a
** Vietnamese syllable (viet_onset()'s test of the letters alone)? */
static int viet_letters(const unsigned char *s, size_t k, size_t i){
  size_t n, c;
  char w[6];                            /* five letters at most, and 0 */
  /* words run together in capitals start a syllable at their capital
  ** ("#DuLá»‹chViá»‡tNam", "CÃ´ngTyCá»•Pháº§n") */
  for(c=i; c>k+1; c--){
    if( s[c-1]>='A' && s[c-1]<='Z' && s[c-2]>='a' && s[c-2]<='z' ){ k = c-1; break; }
  }
  if( i-k>5 ) return 0;                 /* too long */
  n = i-k;
  for(c=0; c<n; c++) w[c] = (char)(s[k+c] | 0x20);
  w[n] = 0;
  if( viet_consonants(w, n) ) return 1;                    /* "Quá»‘c" */
  if( n>0 && strchr("uioy", w[n-1]) ) w[--n] = 0;          /* the glide */
  if( viet_consonants(w, n) ) return 1;
  /* and a medial u or o before it ("Nguyá»…n", "Khuyáº¿t", "Quyáº¿t") */
  if( n>0 && strchr("uo", w[n-1]) ){
    w[--n] = 0;
    return viet_consonants(w, n);
  }
  return 0;
}

/* The ASCII letters right before s[i], whatever comes before them (a
** quote, a guillemet, another misread letter: "â€žbá»¥iâ€œ"), what may
** start a Vietnamese syllable? Five letters at most, from the last
** capital after a small letter (viet_letters()). */
static int viet_letters_before(const unsigned char *s, size_t i, utf8_moji_charset cs){
  size_t k = i;
  while( k>0 && is_ascii_alpha(s[k-1]) && i-k<12 ) k--;
  if( k>0 && is_ascii_alpha(s[k-1]) ) return 0;
  /* a real accented letter glued before is another language's word
  ** ("Helánová»•", "uaçá»·"): letters of Latin-1 and Extended-A, but
  ** not those the charset reads continuation bytes as, which end
  ** misread characters ("â€žbá»¥i": „ misread as cp1252 ends in ž) */
  if( k>=2 && (s[k-2]==0xC3 || s[k-2]==0xC4 || s[k-2]==0xC5)
   && s[k-1]>=0x80 && s[k-1]<0xC0 ){
    uint32_t u = ((uint32_t)(s[k-2]&0x1F)<<6) | (s[k-1]&0x3F);
    int b = enc_byte(cs, u);
    if( u>=0xC0 && u!=0xD7 && u!=0xF7 && !(b>=0x80 && b<=0xBF) ) return 0;
  }
  return viet_letters(s, k, i);
}

/* Is the letter before s[i] in its word a capital, or none? A
** Vietnamese capital fits only there ("CỔ", "HỒ"; a small letter after
** any: "Phố", "Hồ"). A quote third gives a capital when it closes (” ’:
** Ổ Ồ), so a Portuguese "lá»”" (lá» and a closing quote) would give "lỔ",
** which no Vietnamese word spells. */
static int caps_before(const unsigned char *s, size_t i){
  /* the letter right before: words run together start at their capital
  ** ("xCHá»ˆNH", "ViệtNamCá»”") */
  return !(i>0 && s[i-1]>='a' && s[i-1]<='z');
}

/* Is the letter right before s[i] a small letter ending a word of two
** letters or more, which a word run together with it may follow
** ("#ViệtNamá»ž" for ViệtNamỞ, "SinhViÃªná»¨ng")? */
static int camel_word_before(const unsigned char *s, size_t i){
  return i>=2 && s[i-1]>='a' && s[i-1]<='z' && (is_ascii_alpha(s[i-2]) || s[i-2]>=0x80);
}

/* viet_onset(), caps_before(), viet_letters_before() and
** camel_word_before() at the "á" at s[i], as do_pass() read them before
** writing: 1, 2, 4 and 8 (in place past 32 such letters). */
static int viet_before(const struct pass_ctx *x, size_t i);

static int real_caps_pair(int b0, uint32_t second){
  int s_z = second==0x160 || second==0x17D;                 /* Š Ž */
  if( b0==0xC2 ) return 1;
  if( b0==0xC3 ) return second==0x15E;                      /* Ş */
  if( b0==0xC4 ) return s_z || second==0x15E || second==0x164;  /* Ş Ť */
  return s_z;
}

/*
** Rule 9's levels. The lead bytes C2 C3 C4 C5 E2 F0 are the tell-tales:
** in MacRoman ¬ √ ƒ ≈ ‚ and the Apple logo, in Windows-1250 Â Ă Ä Ĺ â đ,
** characters real text does not put before a letter or sign of bytes
** 80-BF. Another lead (MacRoman's dashes, quotes and capitals, the
** Czech and Polish letters of cp1250) gives level -1: only a run made
** wholly of candidates, two at least, is fixed ("–ü—Ä–∏–≤–µ—Ç").
*/
static int strict_level(const struct pass_ctx *x, int b0, int need, uint32_t d,
                        int pending,
                        uint32_t prev, uint32_t second, uint32_t last,
                        size_t j){
  int mac = x->cs==UTF8_MOJI_MACROMAN;
  /* cp1250's á then two of bytes 80-BF giving a Vietnamese letter
  ** (U+1EA0..U+1EF9: "áş·" ặ, "á»‘" ố): as cp1252 reads the same "á»‘"
  ** (level3(): "á»" + a mark may end a Spanish word in quotes); or a
  ** subscript letter ("xáµ˘" xᵢ: á then µ is in no word) */
  int tell = b0==0xC2 || b0==0xC3 || b0==0xC4 || b0==0xC5 || b0==0xE2 || b0==0xF0
          || (mac && (need==2 || b0==0xC6))
          || (!mac && b0==0xE1 && viet_letter(d))
          || (!mac && b0==0xE1 && ((d>=0x1D62 && d<=0x1D6A) || d==0x2C7C));
  /* Romanian ș ț: cp1250's "Č™" "Č›", MacRoman's "»ô" "»õ"
  ** - before a small letter ("CeauČ™escu", "Achime»õe»ôti"): no text
  **   puts ™ › inside a word, nor a guillemet between letters; under
  **   MacRoman only after an ASCII letter or a misread ă â î
  **   ("AcƒÉ»õari"), since » before a word opens a German quote (»ôter«)
  **   and "nhà»ông" is Vietnamese after a breadcrumb's »;
  ** - or after a small letter ("BabeČ™": Č after small letters ends no
  **   word, nor does a guillemet glued to a word before ô). */
  if( b0==0xC8 && (d==0x219 || d==0x21B) && pending==0
   && ((j<x->n && is_ascii_small(x->s[j])
        && (!mac || is_ascii_alpha(prev) || prev==0xC9 || prev==0xA2 || prev==0xC6))
       || is_ascii_small(prev)) ) return 2;
  /* MacRoman's capitals "»ò" "»ö" (Ș Ț): between ASCII letters sure as
  ** the small ones ("BOTO»òANI"), but only in a value that holds another
  ** misread Romanian letter (x->romanian): German, Swedish and Catalan
  ** glue » to ö and ò in breadcrumbs and quotes ("Startseite»ökologisch",
  ** "Hem»öppettider", "Text»òpera«": without it they are no candidate,
  ** which would count against another reading, rule 10); at a word's
  ** start doubtful, lone_mac() takes them in a value misread throughout */
  if( mac && b0==0xC8 && (d==0x218 || d==0x21A) && pending==0 ){
    if( !x->romanian ) return -4;
    return is_ascii_alpha(prev) && j<x->n && is_ascii_alpha(x->s[j]) ? 2 : 0;
  }
  /* Romanian Ț: cp1250's "Čš" before an ASCII letter, at a word's start
  ** or after a capital ("Čšurcanu", "PANIFICAČšIE"): weak, a rescue in
  ** a value misread throughout (do_run()); no language writes a small š
  ** after a capital Č there, but made-up words may (MacRoman's "»ö"
  ** opens a German quote) */
  if( !mac && b0==0xC8 && d==0x21A && pending==0 && j<x->n && is_ascii_alpha(x->s[j])
   && !(letter(prev) && !upper_ext(prev)) ) return 1;
  /* Vietnamese ư ơ Ư: cp1250's "Ć°" "Ćˇ" "ĆŻ" (Ć then ° ˇ Ż is in no
  ** word; "Ć" + NBSP, Ơ, ends Croatian names of capitals): weak, taken
  ** beside other Vietnamese (do_run()) */
  if( !mac && b0==0xC6 && pending==0 && (d==0x1A1 || d==0x1AF || d==0x1B0) ) return 1;
  /* "Ë‡", "Œ©": ˇ and Ω, continuation bytes of a deeper misreading */
  if( !tell && pending>0 ) return 0;
  /* Greek (MacRoman Œ œ, cp1250 Î Ď): -3, three in a run (rule 9) */
  if( !tell && (b0==0xCE || b0==0xCF) ) return plausible(d) ? -3 : -4;
  /* Ukrainian Ґ ґ (D2 90, D2 91: MacRoman "“ê" "“ë", cp1250 "Ň" + U+0090
  ** and "Ň‘"): a wild lead for them alone ("“é" would be the mark
  ** U+048E), and only before another Cyrillic letter's lead: French
  ** "“être”" is no candidate, which would count against the reading of
  ** a misread word beside (rule 10) */
  if( !tell && b0==0xD2 && (d==0x490 || d==0x491) ){
    int nb = j<x->n ? enc_byte(x->cs, utf8_decode_valid(x->s+j).codepoint) : -1;
    return nb==0xD0 || nb==0xD1 ? -1 : -4;
  }
  /* ʼ (CA BC: MacRoman NBSP + "º", cp1250 "ĘĽ") inside a misread
  ** Ukrainian word ("–±" + NBSP + "º—î" of бʼє; candidate() wants a
  ** misread character before it) */
  if( !tell && b0==0xCA && d==0x2BC ) return -1;
  if( !tell ) return plausible(d) && wild_lead(x->cs, b0) ? -1 : -4;
  if( need==3 ) return 2;
  if( need==2 ){
    /* MacRoman's leads E3-EF are „ ‰ and capitals: "Êó¨" (CJK) is no
    ** word, but a capital and two letters or signs may be ("Êéù",
    ** "Î±é" of Greek misread as cp1250): two are needed */
    /* but a middle dot then ∫ or ª, and a third giving a Vietnamese
    ** letter ("Ph·ªë" Phố, "B·∫°c" Bạc: U+1EA0..U+1EF9 are E1 BA xx and
    ** E1 BB xx), is in no text: no word follows a middle dot with ∫ or
    ** an ordinal ª. Not ∫ then ∫ or ∂ (Ẻ, Ặ): physics writes
    ** "∇·∫∫ F dS", "B·∫∫dA", "n·∫∂Ω" */
    if( mac && b0==0xE1 && (second==0x222B || second==0xAA) && viet_letter(d)
     && last!=0x222B && last!=0x2202 ) return 2;
    if( mac && b0!=0xE2 ) return 1;
    /* MacRoman's ‚ then a letter and a letter is ‚Ää of Finnish in German
    ** quotes as often: only the punctuation that text uses is sure
    ** ("‚Äô" ’, "‚Äú" “, "‚Ä¶" …, "‚Ç¨" €), not ‚Ää's hair space */
    if( b0==0xE2 && sure_symbol3(x, d, prev, second, last, j) ) return 2;
    /* cp1250's "á»" and a third (ố ồ ợ): a Spanish word ending in á and a
    ** closing guillemet may be glued to a mark ("está»—dijo", "quizá»‘"):
    ** weak at most, where "áş" (ặ ả ấ: ş follows á in no language) is as
    ** level3() says */
    if( b0==0xE1 && second==0xBB ){
      int l = level3(x, prev, second, last, j);
      return l>1 ? 1 : l;
    }
    if( mac && !common_punct(d) ) return 0;
    return level3(x, prev, second, last, j);
  }
  /* "SPÄ”", „JÄÄ“, ›ALBĂ‹: a capital ending a word; but as rule 4 has it, not
  ** cp1250's "Â»" in a value whose opening "Â«" is misread too */
  if( (is_closing(last) || last==0xA0 || last==0xAB || last==0x201C || last==0x2018
       || (last==0x2039 && x->single_open) || (!mac && sign_after_a_tilde(b0, last)))
   && upper_ext(prev) && word_ends(x, j, last)
   && !(!mac && b0==0xC2 && last==0xBB && x->opened) && !x->word_sure ){
    return 0;
  }
  /* as rule 4: "„casĂ”", "recĂlĂfĂtuitĂ…" */
  if( !mac && need==1 && lowered_capital_end(x, b0, prev, d, last, j) ) return 0;
  if( !mac ){
    /* cp1250's leads Â Ă Ä Ĺ are capitals: "PĂŞUNE" (Romanian), «Ä»
    ** (ě is "Ä›" after a letter, Ż "Ĺ»" at the start of a word); but
    ** a word of capitals does not go on in small letters: "MĂĽller",
    ** "SĂŁo" are ü and ã after a capital; and only the pairs of
    ** capitals some language writes are weak (real_caps_pair()) */
    if( upper_ext(prev) && latin_letter(second) && upper_ext(second) && !small_at(x, j)
     && real_caps_pair(b0, second) ) return 1;
    if( b0==0xC4 && is_closing(last) && !letter(prev) ) return 1;
  }
  /* one letter in quotes («Â», „Ä“): it names a letter */
  if( need==1 && any_quote(prev) && any_quote(last) && !letter_at(x, j) ) return 0;
  /* MacRoman's "¬´" after an ASCII sign, with no letter after: a
  ** drawing of signs ("`¬´ ):" is an angry face, not «); not after a
  ** full stop ("Prof.¬™" is Prof.ª misread) */
  if( mac && b0==0xC2 && second==0xB4 && prev>0x20 && prev<0x7F && prev!='.'
   && !is_ascii_alnum(prev) && !letter_at(x, j) ) return 0;
  /* "√π" is math after a space or a sign, ù after a letter ("o√π") */
  if( mac && b0==0xC3 && second==0x3C0 && !letter(prev) ) return 1;
  /* a tell-tale (not ƒ: "ƒπ" is Slovak Ĺ) then a sign of mathematics with no letter on either side
  ** ("σ=√∑(x", "¬π"), ≈ then one before a digit or a sign ("x≈±2",
  ** "θ≈π/2"), a degree of Celsius or Fahrenheit ("∆°C"): doubtful; beside
  ** a letter it is one ("K√∂ln", "Espa√±a", "h√°", "m¬≤", "√∫pěl"; ≈
  ** leads Polish and Czech letters: "p≈ô√≠li≈°" for příliš) */
  if( mac && need==1 && b0!=0xC4 && !(b0==0xC3 && second==0x3C0) && mac_math(second)
   && ((!in_word(prev) && !(j<x->n && in_word(x->s[j])))
       || (b0==0xC5 && j<x->n && math_next(x->s[j]))
       || (second==0xB0 && j<x->n && (x->s[j]=='C' || x->s[j]=='F')
           && !(j+1<x->n && in_word(x->s[j+1])))) ){
    return 0;
  }
  return 2;                              /* √©, Ă©, ĹĽ, ƒç, ≈°, ¬† */
}

/*
** Rule 9: the other leads that may start a candidate, only in a run made
** wholly of candidates, two at least: the leads of Cyrillic (MacRoman –
** —, cp1250 Đ Ń), Hebrew (◊, ×) and of three-byte characters (CJK:
** cp1250's ă ä ĺ ć ç č é ę ë ě í î ď). Greek's, MacRoman's Œ œ and
** cp1250's Î Ď (strict_level()), need three ("œùœà" could be a made-up
** French word, "ĎŠ" is Czech); not cp1250's Ř Ů (Arabic): "ŘŠ", "ŮŽ"
** are Czech capitals.
*/
static int wild_lead(utf8_moji_charset cs, int b0){
  (void)cs;
  return b0==0xD0 || b0==0xD1 || b0==0xD7 || (b0>=0xE3 && b0<=0xEF);
}

/* Does s[0..n) hold the bytes pat[0..len)? With open, only where a quote
** opens: not after an ASCII letter ("HÂLÂ«" is a Turkish word in German
** quotes, »HÂLÂ«, not a misread «). */
static int holds(const unsigned char *s, size_t n, const char *pat, size_t len, int open){
  const unsigned char *p = s, *end = s+n;
  while( (size_t)(end-p)>=len && (p = memchr(p, (unsigned char)pat[0], (size_t)(end-p)))!=0 ){
    if( (size_t)(end-p)>=len && memcmp(p, pat, len)==0 && !(open && p>s && is_ascii_alpha(p[-1])) ){
      return 1;
    }
    p++;
  }
  return 0;
}

/* Is there an NBSP among the characters s[i..j)? */
static int nbsp_among(const struct pass_ctx *x, size_t i, size_t j){
  for(; i+1<j; i++){
    if( x->s[i]==0xC2 && x->s[i+1]==0xA0 ) return 1;
  }
  return 0;
}


/* Is s[j] a letter (ASCII or Latin-1 .. Latin Extended-B)? */
static int letter_at(const struct pass_ctx *x, size_t j){
  uint32_t c = j<x->n ? utf8_decode_valid(x->s+j).codepoint : 0;
  return letter(c);
}

/* Is s[j] a small letter (ASCII or Latin-1 .. Latin Extended-B)? */
static int small_at(const struct pass_ctx *x, size_t j){
  uint32_t c = j<x->n ? utf8_decode_valid(x->s+j).codepoint : 0;
  return letter(c) && !upper_ext(c);
}

/* After a closing mark at s[j]: does the word end there (no letter
** follows, or the mark is an NBSP or the apostrophe of "’s")? */
static int word_ends(const struct pass_ctx *x, size_t j, uint32_t mark){
  if( mark==0xA0 || (mark==0x2019 && j<x->n && x->s[j]=='s') ) return 1;
  return !letter_at(x, j);
}

/* Rule 4's doubtful three at a word's end: after the word's letters, a
** quote or an ellipsis last, and one before it too or š ž ("ví…“",
** "též“"; end_mark() says why not • ‰ or dashes). */
static int ends_word3(const struct pass_ctx *x, uint32_t prev, uint32_t second,
                      uint32_t last, size_t j){
  return (end_mark(second) || second==0x161 || second==0x17E) && end_mark(last)
      && letter(prev) && word_ends(x, j, last);
}

/* Does the text hold a CJK character, kana, Hangul syllable or a letter
** of an Indic or another script of three bytes misread (à then a byte
** A4-BF, á, ã to ï: the leads of U+0900..U+1FFF and U+3000..U+FFFF,
** then two characters of continuation bytes; Tamil "à®šà®•" is சக),
** other than the shapes sign_ends_word3() doubts
** (a letter then an NBSP, or ® ™ and a closing mark, which may be a real
** word's end: "così" + NBSP + "»", "Nescafé®’s")? Such text is written
** character after character, and a Latin term glued to one of them
** ("什么是trie树", "AI화") is part of it. */
static int misread_cjk_other(const struct pass_ctx *x);
static int cjk_scan(const struct pass_ctx *x, int other);
static int misread_cjk(const struct pass_ctx *x){
  return cjk_scan(x, 0);
}

/* A closing guillemet or quote (rule 4's doubtful "«Employé»—"). */
static int closer(uint32_t c){
  return any_quote(c) && c!=0x201E && c!=0x201A;       /* not „ ‚ */
}
/* Does the text hold a CJK character misread (misread_cjk()'s leads, two
** characters of continuation bytes) whose second is no closing mark? A
** value that does is CJK text, where "Bç«™" (B站) glued to a letter is
** one more of its characters, not a quoted word's end. */
static int misread_cjk_other(const struct pass_ctx *x){
  return cjk_scan(x, 1);
}

/* misread_cjk() (other 0) and misread_cjk_other() (1): one scan of the
** leads Ã à á ã..ï and two characters of continuation bytes. */
static int cjk_scan(const struct pass_ctx *x, int other){
  const unsigned char *p = x->s, *end = x->s + x->n;
  if( x->cs!=UTF8_MOJI_CP1252 && (other || x->cs!=UTF8_MOJI_LATIN1) ) return 0;
  while( (p = memchr(p, 0xC3, (size_t)(end-p)))!=0 && end-p>=2 ){
    if( (p[1]>=0xA3 && p[1]<=0xAF) || (!other && (p[1]==0xA1 || p[1]==0xA0)) ){
      const unsigned char *q = p+2;
      int k, b[2] = { 0, 0 }, ok = 1;
      uint32_t second = 0, third = 0;
      for(k=0; k<2 && ok; k++){
        utf8_unit u;
        if( q>=end || *q<0x80 ){ ok = 0; break; }
        u = utf8_decode_valid(q);
        b[k] = enc_byte(x->cs, u.codepoint);
        if( b[k]<0x80 || b[k]>0xBF ) ok = 0;
        if( k==0 ) second = u.codepoint;
        third = u.codepoint;
        q += u.length;
      }
      if( other ){
        if( ok && !closer(second) ) return 1;
      }else{
        if( p[1]==0xA0 && b[0]<0xA4 ) ok = 0;     /* à: Indic from U+0900 */
        if( ok && b[0]!=0xA0
         && !((b[0]==0xAE || b[0]==0x99)
              && (end_mark(third) || third==0x2022 || third==0xB7)) ) return 1;
      }
    }
    p++;
  }
  return 0;
}

/* Rule 4's doubtful three at a word's end, under cp1252 and Latin-1: a
** word's last letter, then an NBSP and a sign ("på" + NBSP + "– og",
** "Café" + NBSP + "»", "Café" + NBSP + "€ 2,50", "Passé" + NBSP + "§":
** Nordic and French typography), or ® ™ and a closing mark, • or ·
** ("Nescafé®’s", „Nestlé®“, "Rosé™•"): alone in their run they are a
** real word's end as often as a misread CJK character, which comes
** among others. After a small letter (a CJK character standing alone
** between spaces is as often misread: " ç™” " is 癔); not in a text
** that holds another misread CJK character (misread_cjk(): "什么是trie树",
** "AI화" and "D-day전" beside other Korean, but "così" + NBSP + "»" and
** "në" + NBSP + "–" beside Latin); nor after â, whose symbols stay as
** sure_symbol3() says ("Ecoâ™»" is Eco♻ misread twice). */
static int cjk_text(const struct pass_ctx *x){
  /* a cache in the counting pass; the writing pass read it before
  ** writing (its out may be s) */
  if( x->cjk_other<0 ) ((pass_ctx *)x)->cjk_other = misread_cjk_other(x);
  return x->cjk_other;
}
static int sign_ends_word3(const struct pass_ctx *x, int b0, uint32_t prev, uint32_t second,
                           uint32_t last, size_t j){
  int shape;
  if( b0==0xE2 || x->cs==UTF8_MOJI_CP1251 ) return 0;
  if( !letter(prev) || upper_ext(prev) ) return 0;
  if( !word_ends(x, j, last) ) return 0;
  if( second==0xA0 ) shape = !letter(last) && !cp1252_letter(last);
  else shape = (second==0xAE || second==0x2122)
            && (end_mark(last) || last==0x2022 || last==0xB7);
  if( !shape ) return 0;
  /* a cache in the counting pass, read once, on first need (the
  ** writing pass read it before writing: its out may be s) */
  if( x->cjk<0 ) ((pass_ctx *)x)->cjk = misread_cjk(x);
  return !x->cjk;
}

/* Rule 4's level of three characters: 0 with an NBSP among them, a soft
** hyphen before a letter, or at a word's end (ends_word3); 1 when the 2nd and 3rd are both marks that
** end a word or close a quote, or cp1252 letters ("rç…", "blíž”"); 2. */
static int level3(const struct pass_ctx *x, uint32_t prev, uint32_t second,
                  uint32_t last, size_t j){
  int s2 = after_word(second) || quote_mark(second) || cp1252_letter(second);
  int s3 = after_word(last) || quote_mark(last) || cp1252_letter(last);
  if( second==0xA0 || last==0xA0 || ends_word3(x, prev, second, last, j) ) return 0;
  /* a soft hyphen between letters: a word hyphenated ("â" + SHY + "şık",
  ** Turkish âşık under cp1250, would give U+2B7A) */
  if( second==0xAD && letter(last) ) return 0;
  return s2 && s3 ? 1 : 2;
}

/*
** Rule 4's symbols: three characters led by the lead of U+2000..U+2FFF
** (cp1252's and cp1250's â, MacRoman's ‚) that give an arrow, a sign of
** mathematics, a box, a shape or a dingbat (U+2190..U+2BFF: "âœ“" ✓,
** "â– " ■, "â‰ " ≠, "‚Üí" →) are sure, which level3() and the
** MacRoman rule would leave weak or doubtful: no word puts a letter or
** a sign after â (œ š ž ‰ †: "âœ…" ✅), and a word ending in â
** ("hâlâ", Welsh "â") glued to a mark and an NBSP is no one's
** typography. They stay as level3() says where real text may be a word
** ending in â, then a closing mark or quote, then another ("hâlâ”…"
** would give ┅, "Brâ®”" ⮔), or Welsh "â" then a quote or dash and a
** closing mark, or quoted and an NBSP after ("“â”" + NBSP would give
** ┠), or two letters of cp1252's after â ("âœœ" of a made-up
** French word), or a word going on after them; under MacRoman, ‚
** then two letters before a letter or a quote is a word in low quotes
** ("‚ääni‘" would give ⊊, Estonian "‚öö‘" ⚚).
*/
static int sure_symbol3(const struct pass_ctx *x, uint32_t d, uint32_t prev,
                        uint32_t second, uint32_t last, size_t j){
  int mark2 = is_closing(second) || any_quote(second);
  if( d<0x2190 || d>0x2BFF ) return 0;
  if( second==0xAD && letter(last) ) return 0;     /* "â" + SHY + "şık" */
  if( x->cs==UTF8_MOJI_MACROMAN ){
    uint32_t next = j<x->n ? utf8_decode_valid(x->s+j).codepoint : ' ';
    return !(letter(second) && letter(last)
             && (letter(next) || any_quote(next) || is_closing(next) || next=='\''));
  }
  if( cp1252_letter(second) && cp1252_letter(last) ) return 0;   /* "âœœ" */
  /* after a letter, â is a word's: a sign that follows words (® ° • ‰)
  ** or a mark, last or second, is its end ("Brâ®”", "hâlâ”…") */
  if( letter(prev) ){
    return !mark2 && !after_word(second) && !after_word(last) && !any_quote(last)
        && !end_mark(last) && !letter_at(x, j);
  }
  if( any_quote(prev) && any_quote(second) && last==0xA0 ) return 0;  /* Welsh “â” + NBSP */
  return !mark2 || (!is_closing(last) && !any_quote(last) && !end_mark(last));
}

/* Rules 4 and 9: two characters led by Ã Ä Å (cp1250 Ă Ä Ĺ) giving a
** capital that ends a word after small letters, before ’ ” … ›: a word
** lowered by an ASCII-only lower() ("“irmÃ”" is “irmã” so, not irmÔ;
** "irmÃ…" not irmÅ), which misread text is not. Doubtful. */
static int lowered_capital_end(const struct pass_ctx *x, int b0, uint32_t prev, uint32_t d,
                               uint32_t last, size_t j){
  return b0>=0xC3 && b0<=0xC5 && is_ascii_small(prev) && upper_ext(d)
      && (last==0x2019 || last==0x201D || last==0x2026 || last==0x203A)
      && word_ends(x, j, last);
}

/*
** Rule 3's combining marks: text in decomposed form (NFD, as macOS
** writes file names: "u" + U+0308 for ü) misread as cp1252 is "uÌˆber",
** and struck-through letters "$Ì¶6" (U+0336). Only the accents of Latin
** letters (U+0300..U+0328, led by Ì) and the stroke are taken: Í and a
** sign, or Ì then SHY, ® or °, are a real word's ("PAPELERÍ­O" holds a
** soft hyphen). And only after an ASCII character (not a space), with
** an ASCII letter or digit after it (inside a word), or after a small
** letter or a digit and not before a mark that ends a word: a word of
** capitals ending in Ì is Italian ("COSÌ”" would give U+0314). An
** accent must sit on a letter some language puts it on: Italian
** "LUNEDÌ€10", a sign glued after LUNEDÌ, would put a grave on D.
*/
static int nfd_mark(const struct pass_ctx *x, uint32_t d, size_t i, uint32_t prev,
                    uint32_t second, size_t j){
  /* the letters each accent sits on in some language (U+0300..U+030C,
  ** U+0327, U+0328): "LUNEDÌ€10" would put a grave on D; the dot above
  ** on i too, which lower-casing Turkish İ writes ("iÌ‡brahim") */
  static const char *const bases[13] = {
    "AEIOUNWYaeiounwy", "ACEGIKLMNOPRSUWYZacegiklmnoprsuwyz",
    "ACEGHIJOSUWYZaceghijosuwyz", "AEINOUVYaeinouvy", "AEGIOUaegiou", 0,
    "AGUagu", "CEGIZcegiz", "AEIOUYaeiouy",
    0, "AUWYauwy", "OUou", "ACDEGHIKLNORSTUZacdeghijklnorstuz" };
  unsigned char next = j<x->n ? x->s[j] : ' ';
  const char *base = 0;
  if( strict_cs(x->cs) || x->cs==UTF8_MOJI_CP1251 || d<0x300 ) return 0;
  if( d<=0x30C ) base = bases[d-0x300];
  else if( d==0x327 ) base = "CGKLNRSTcgklnrst";
  else if( d==0x328 ) base = "AEIOUaeiou";
  else if( d!=0x336 ) return 0;
  if( !(prev>0x20 && prev<0x7F) ) return 0;
  if( d!=0x336 && !(base && strchr(base, (int)prev)) ) return 0;
  /* a capital goes on in capitals ("MUÌˆLLER"), or in small letters
  ** when it starts the word ("UÌˆber"): "COSÌ‚a", "LUNEDÌ§1" glue a
  ** sign to Italian capitals */
  if( prev>='A' && prev<='Z' ){
    int first = !(i>=2 && is_ascii_alpha(x->s[i-2]));
    return next>='A' && next<='Z' ? 1 : first && is_ascii_small(next);
  }
  /* the stroke inside struck-through text: before a letter or a digit,
  ** or after a digit ("6Ì¶3Ì¶"), not glued after a word ("lunedÌ¶") */
  if( d==0x336 && !is_ascii_alnum(next) && !(prev>='0' && prev<='9') ) return 0;
  if( is_ascii_alnum(next) ) return 1;
  return (is_ascii_small(prev) || (prev>='0' && prev<='9'))
      && !after_word(second) && !any_quote(second);
}

/* Under cp1252 and Latin-1, is d a letter or a modifier of the
** IPA (ɛ ə ʃ ŋ ʰ ˈ ː) inside a transcription: s[i..j) in a token that
** opens with / or [ and closes with / or ], with no ASCII capital ("/É›/"
** of /ɛ/)? Alone, "É›" and "Ê¼" could be a capital and a mark typed
** together, and rule 3 takes no IPA; a token with capitals, digits or
** signs other than . ' : - ( ) is a name, a path or a pattern
** ("[JOSÉ–MARIA]", "/mnt/ANDRÉ—old/", whose É and a dash would give ɖ;
** "[^É°]"), and so is one whose / follows a word ("usr/Êƒ/"), or that
** closes with the other mark ("/Êƒ]"). */
static int ipa_char(unsigned char c){
  return c>=0x80 || (c>='a' && c<='z') || c=='.' || c=='\'' || c==':' || c=='-'
      || c=='(' || c==')';
}
static int ipa_transcription(const struct pass_ctx *x, uint32_t d, size_t i, size_t j){
  size_t k, open;
  if( x->cs!=UTF8_MOJI_CP1252 ) return 0;
  if( !(d>=0x250 && d<=0x2FF) ) return 0;
  for(k=i; k>0 && x->s[k-1]!='/' && x->s[k-1]!='['; k--){
    if( !ipa_char(x->s[k-1]) || i-k>48 ) return 0;
  }
  if( k==0 ) return 0;
  open = x->s[k-1];
  /* a slash that opens no path: not after a letter, a digit or a dot */
  if( k>=2 && (is_ascii_alnum(x->s[k-2]) || x->s[k-2]=='.' || x->s[k-2]=='/') ) return 0;
  for(k=j; k<x->n && x->s[k]!='/' && x->s[k]!=']'; k++){
    if( !ipa_char(x->s[k]) || k-j>48 ) return 0;
  }
  return k<x->n && x->s[k]==(open=='[' ? ']' : '/');
}

/* Rules 3 and 4 at s[i] in the run that ends at b; prev is the character
** before s[i]; pending how many continuation bytes the characters
** written before it still want (see track()). Returns 1 with *c filled, 0
** when there is no candidate. */
/* A C1 control that only Latin-1 has: cp1252 (WHATWG's) passes 81 8D 8F
** 90 9D through as their own bytes, and names the others otherwise. */
static int latin1_c1(uint32_t u){
  return u>=0x80 && u<0xA0 && u!=0x81 && u!=0x8D && u!=0x8F && u!=0x90 && u!=0x9D;
}
/* The length of the UTF-8 sequence lead byte b0 starts (C2 up), 0 if none. */
static int lead_len(int b0){
  return b0>=0xF0 && b0<=0xF4 ? 4 : b0>=0xE0 && b0<=0xEF ? 3 : b0>=0xC2 && b0<=0xDF ? 2 : 0;
}

/* The capitals with a Russian look-alike: twin_upper() but J and S,
** whose twins Ј Ѕ are Serbian and Macedonian. */
static int russian_twin_upper(unsigned char c){
  return c>='A' && c<='Z' && strchr("ABCEHIKMOPTXY", c)!=0;
}

/* Is s[i] after a word of ASCII capitals, from its start, that is
** Latin? Not when d, the character at s[i], is Cyrillic and every
** capital is one of its look-alikes (A B C E H I K M O P T X Y): Russian
** typed so, "MOÐ™" is MOЙ, "TOÐ®" TOЮ; and the I of Ukrainian and
** Belarusian, "MIÐ™" MIЙ. */
static int ascii_caps_before(const pass_ctx *x, size_t i, uint32_t d){
  size_t k = i;
  int lookalike = 1;
  while( k>0 && x->s[k-1]>='A' && x->s[k-1]<='Z' ){
    if( !russian_twin_upper(x->s[k-1]) ) lookalike = 0;
    k--;
  }
  if( lookalike && d>=0x400 && d<=0x52F ) return 0;
  return k<i && (k==0 || (x->s[k-1]<0x80 && !is_ascii_alnum(x->s[k-1])));
}

/* What follows a lead and an NBSP (a character d whose last byte is A0)
** at s[j] when they are a real sign or capital and a space, not d: a
** digit ("5 × 5 m", "Ø 100" set with NBSPs: no misread letter stands
** there), or, when d is of a script other than Latin (Hebrew נ, Arabic
** ؠ), an ASCII letter or a character that starts no misread one
** ("Hammarby × Djurgården", "3 × ½"): misread, the letter after d is
** misread too, and its first character is a lead. Not Â and Ã, whose
** NBSP and à stand anywhere ("Â 100"), nor Russian Р and Greek Π,
** which codes glue to digits and Latin letters ("Трасса Р5", "ГОСТ
** Р52289", "Рhilips" with a Cyrillic Р in a shop's listing), nor the
** Arabic-Indic zero ٠ before a unit ("٠٠mAh"); but Ӡ Ҡ Ѡ are rare
** letters ("EDICIÓ" + NBSP + "2" is Catalan). */
static int nbsp_pair_apart(const pass_ctx *x, uint32_t d, size_t j){
  utf8_unit u;
  if( j>=x->n || d==0x420 || d==0x3A0 || d==0x660 ) return 0;
  if( x->s[j]>='0' && x->s[j]<='9' ) return 1;
  if( d<0x370 ) return 0;
  if( x->s[j]<0x80 ) return is_ascii_alpha(x->s[j]);
  u = utf8_decode_valid(x->s+j);
  return lead_len(enc_byte(x->cs, u.codepoint))==0;
}

static int candidate(const pass_ctx *x, size_t i, size_t b, uint32_t prev,
                     int pending, cand *c){
  unsigned char buf[4];
  utf8_unit u = utf8_decode_valid(x->s+i);
  int b0 = enc_byte(x->cs, u.codepoint), need, k;
  uint32_t last = 0, second = 0;
  size_t j = i + u.length;
  int c1 = 0, ctl = 0, a0_apart, ipa;
  utf8_unit v;
  need = lead_len(b0) - 1;                  /* continuation bytes */
  if( need<1 ) return 0;
  buf[0] = (unsigned char)b0;
  for(k=1; k<=need; k++){
    int bk;
    if( j>=b ) return 0;
    u = utf8_decode_valid(x->s+j);
    bk = enc_byte(x->cs, u.codepoint);
    if( bk<0x80 || bk>0xBF ) return 0;
    if( latin1_c1(u.codepoint) ) c1 = 1;
    if( u.codepoint>=0x80 && u.codepoint<0xA0 ) ctl = 1;
    buf[k] = (unsigned char)bk;
    if( k==1 ) second = u.codepoint;
    last = u.codepoint;
    j += u.length;
  }
  v = utf8_decode_unit(buf, (size_t)need+1);
  if( v.reason!=UTF8_OK || v.length!=need+1 ) return 0;
  /* A C1 control only as a continuation byte of a deeper misreading,
  ** after a lead character (Ä then U+008D is č misread twice). */
  ipa = !plausible(v.codepoint) && ipa_transcription(x, v.codepoint, i, j);
  if( !plausible(v.codepoint)
   && !(v.codepoint<0xA0 && pending>0 && enc_byte(x->cs, v.codepoint)>=0)
   && !deeper_strict(x->cs, v.codepoint, pending)
   && !nfd_mark(x, v.codepoint, i, prev, second, j) && !ipa ) return 0;
  /* ʼ (U+02BC) only right after another misread character (prev is a
  ** continuation byte of it: "Ð±Ê¼" of бʼ): "Кј" starts Macedonian
  ** words ("Кјустендил"), "Ê¼" alone is no one's apostrophe */
  if( v.codepoint==0x2BC ){
    int pb = enc_byte(x->cs, prev);
    if( pb<0x80 || pb>0xBF ) return 0;
  }
  c->d = v.codepoint;
  c->end = j;
  c->last = last;
  c->c1 = c1 && x->cs==UTF8_MOJI_CP1252;
  c->nchars = need+1;
  c->second = second;
  c->word_end = 0;
  if( strict_cs(x->cs) ){
    /* a C1 control as a continuation byte: cp1250 leaves 81 83 88 90 98
    ** undefined and decoders pass them through as the controls of the
    ** same value, which no text holds otherwise. After any lead it is
    ** sure ("Ń" + U+0083 is у, "Č" + U+0098 Romanian Ș, "Ň" + U+0090
    ** Ukrainian Ґ, "Ä" + U+0090 Đ); MacRoman has no such byte */
    c->level = ctl && pending==0 ? 2
             : strict_level(x, b0, need, v.codepoint, pending, prev, second, last, j);
    if( need==2 ) c->word_end = c->level==0 && ends_word3(x, prev, second, last, j);
    if( need==1 && c->level==0 && any_quote(prev) && any_quote(last) ) c->word_end = 1;
    return c->level>=-3;
  }
  /* a lead and an NBSP that are a real sign or capital and a space */
  a0_apart = need==1 && last==0xA0 && b0>=0xC4 && nbsp_pair_apart(x, v.codepoint, j);
  if( need==3 ){
    /* ðŸ˜€: no text has ð and three marks, but "ð" + NBSP + "–" + NBSP
    ** is Icelandic set with French spaces (an emoji's "ðŸ" is no
    ** word's: "ðŸ " + NBSP is 🏠) */
    c->level = nbsp_among(x, i, j) && second!=0x178 && second!=0x9F ? 0 : 2;
  }else if( need==2 ){
    /* "rç…" + NBSP, "blíž”", "æœœ": a letter, then what ends a word or
    ** another letter; or an NBSP inside. Where a mark that ends a word or
    ** closes a quote is last and the word ends there ("ví…“", "též“",
    ** "Café‘“", "Olé‹«"): doubtful */
    c->level = level3(x, prev, second, last, j);
    if( b0==0xE2 && c->level<2 && sure_symbol3(x, v.codepoint, prev, second, last, j) ){
      c->level = 2;
    }
    c->word_end = c->level==0 && ends_word3(x, prev, second, last, j);
    if( c->level<2 && sign_ends_word3(x, b0, prev, second, last, j) ){
      c->level = 0;
      c->word_end = 2;
    }
    /* (not in CJK text: "„ç¾Žé£Ÿæ–°æ¬¾Bç«™“" is „美食新款B站“) */
    /* a word's last letter, accented, then a closing guillemet or quote
    ** and any mark, after a real opening mark ("«Employé»—", "»Café«—",
    ** "‹André›§", "“é”…"), or then a dash, an ellipsis, a quote or an
    ** NBSP, what follows a quote ("\"André»" + NBSP): the end of a real
    ** word in quotes, which alone in its run stays even where every other
    ** character is misread. Without either it is CJK glued to a Latin
    ** letter as often ("Bç«™" is B站). Not "á»" and a third, Vietnamese
    ** letters (viet_guard()) */
    if( (letter(prev) || any_quote(prev) || prev=='-') && !(b0==0xE1 && second==0xBB)
     && (x->opener<i || spanish_mark(last) || last==0x2015 || any_quote(last) || last==0xA0)
     && closer(second) && !cjk_text(x) ){
      c->level = 0;
      if( !c->word_end ) c->word_end = 1;   /* "sexué»" + NBSP too */
    }
  }else if( x->cs!=UTF8_MOJI_CP1251 && v.codepoint>=0x400
         && (last==0xAE || last==0x2122 || last==0x2026)
         && ascii_caps_before(x, i, v.codepoint) && word_ends(x, j, last) ){
    /* a capital and ® ™ … giving a letter of a script other than Latin
    ** and Greek, ending a word of ASCII capitals: a Latin word of
    ** capitals, its last one and a sign ("KIADÓ®" would give Ӯ,
    ** "METRÔ®" Ԯ, "VIÐ…" Ѕ). Not after a misread letter in the word
    ** (Russian typed with Latin look-alikes: "ÐšOÐ›" is КOЛ), nor
    ** other signs (a licence plate "X583OÐ" + U+0090 ends in А, "KAMAÐ—"
    ** is KAMAЗ), nor Greek: "TNFÎ±" is TNFα, "MÎ©" MΩ. cp1251 reads its
    ** own Latin letters so ("MГј"). */
    c->level = 0;
    c->word_end = 2;
  }else if( (is_closing(last) || last==0xA0 || last==0x201C || last==0x2018 || last==0xAB
             || (last==0x2039 && x->single_open) || sign_after_a_tilde(b0, last))
            && upper_ext(prev) && word_ends(x, j, last)
            && !(b0==0xC2 && x->opened) ){
    /* "IRMÃ»", "VIÐ»", "ÑANDÚ»", Turkish "HÂLÂ»"; and the closing quotes
    ** of German, Czech and Estonian („JÄÄ“, ‚OÜ‘, »ABDÓ«), which English
    ** and French open with; ‹ only where a real › opens (›ABDÓ‹): its
    ** byte is Ë's ("BELGIÃ‹"). "Â«BONJOURÂ»" is undone: its opening mark
    ** is misread too. Before a number with an NBSP, it stays alone in
    ** its run, as below ("EDICIÓ" + NBSP + "2" would give Ӡ). */
    c->level = 0;
    if( a0_apart ) c->word_end = 2;
  }else if( lowered_capital_end(x, b0, prev, v.codepoint, last, j) ){
    c->level = 0;
    c->word_end = 1;
  }else if( any_quote(prev) && any_quote(last) && !letter_at(x, j) ){
    /* one letter in quotes: «Â», »Å«, „Ä“ name a letter; misread, the
    ** opening quote is misread too and in the same run ("Â«Ã…Â»") */
    c->level = 0;
    c->word_end = 1;
  }else if( a0_apart
         || (b0>=0xC4 && (last==0x2013 || last==0x2014) && j<x->n && !letter(prev)
             && x->s[j]>='0' && x->s[j]<='9' && v.codepoint<0x370) ){
    /* a sign or a capital set with an NBSP before what no misread letter
    ** ending in A0 stands before (nbsp_pair_apart(): "5 × 5 m", "Ø 100",
    ** "Hammarby × Djurgården"); a capital standing apart, a dash and a
    ** number, giving a Latin letter: a range ("3 Å–5 Å" would give Ŗ;
    ** Ж, Η and Hebrew ז before a digit are codes, and Latvian ŗ glued
    ** to a word and a number a misread word, "pigmentsÅ—10"). Never
    ** taken more readily than level 0 (word_end 2: a run an NBSP glues
    ** to misread text is no reason) */
    c->level = 0;
    c->word_end = 2;
  }else if( (b0==0xC5 && (second==0xB2 || second==0xB3) && !letter(prev))
         || ((b0==0xD7 || b0==0xD8) && second>=0xBC && second<=0xBE)
         || (b0==0xD7 && prev>='0' && prev<='9') ){
    /* "12 Å²" (Å, not Lithuanian "viÅ³" for vių), "Ø½"" and "3×½";
    ** × after a digit multiplies ("5×£35" would give Hebrew ף) */
    c->level = 0;
    c->word_end = 1;
  }else if( b0==0xC3 && second==0x2019 && !letter(prev) && j<x->n && x->s[j]=='s'
         && !letter_at(x, j+1) ){
    /* "a lot of Ã’s": the letter Ã and an English plural, not Ò */
    c->level = 0;
    c->word_end = 1;
  }else if( b0==0xC2 || b0==0xC3 ){
    c->level = 2;                        /* Ã©, Â° */
  }else if( (b0==0xC4 || b0==0xC5) && prev>='a' && prev<='z' ){
    c->level = 2;                        /* dÄ›kuji, liÅŸ: no capital there */
  }else if( (b0==0xC5 || b0==0xC8) && (last==0x2122 || last==0x203A || last==0xAB)
            && !(i>=2 && x->s[i-1]>='A' && x->s[i-1]<='Z' && x->s[i-2]>='A' && x->s[i-2]<='Z')
            && ((j<x->n && is_ascii_small(x->s[j]))
                || (b0==0xC8 && last!=0xAB && is_ascii_small(prev))) ){
    /* È Å then ™ › « and a small letter: inside a word, where no text
    ** puts them ("CeauÈ™escu", "È›ara" for Romanian ș ț, "BÅ™ach" ř,
    ** "Å›" ś, "Å«dens" Latvian ū; at a word's end they are weak:
    ** »ABDÓ«, "MsÚ«"); and È then ™ › after a small letter, ș ț ending
    ** a word ("BabeÈ™": a capital after small letters ends no word).
    ** Not after a word of capitals ("CAFFÈ›bar", a breadcrumb that lost
    ** its spaces), nor other capitals ("INFORMACIÓ›tràmits"), nor Ä:
    ** "Ä›" is ě to cp1250 as well, which starts no word, and made sure
    ** here it would compete with cp1250's reading of Czech */
    c->level = 2;
  }else if( (b0==0xC4 || b0==0xC5) && (last==0x152 || last==0x178)
         && j<x->n && is_ascii_small(x->s[j]) ){
    /* Ä Å then Œ Ÿ and a small letter: not a word of capitals, and no
    ** word starts so ("ÅŸu" for şu, "ÄŒas" for Čas; cp1250 reads those
    ** bytes otherwise, Ś ź) */
    c->level = 2;
  }else if( (b0==0xC4 || b0==0xC5) && second==0xA3 && letter(prev) && upper_ext(prev)
         && (!letter_at(x, j) || !small_at(x, j)) ){
    /* £ for L among capitals, before a capital or ending the word
    ** ("MÄ£ÄM", Indonesian leetspeak): ģ ţ small there are no misread
    ** capitals (but "VšZP", "Aš" are Czech and Lithuanian: Å¡ stays
    ** sure) */
    c->level = 1;
  }else if( after_word(last) ){
    c->level = 1;                        /* Ð», Î±, and "Ó’" */
  }else if( cp1252_letter(last) && b0!=0xD0 && b0!=0xD1 ){
    /* "ÚŽASNÝ", "Úžasný": Czech, Slovak and Hungarian capitals before Š
    ** or Ž; other capitals are not (Åž is Ş, ×ž is מ, ÐŸ is П). After an
    ** ASCII character (inside a word or at its start) they are what no
    ** misread text holds (they would give Komi, Sindhi or Syriac letters,
    ** which follow other misread letters) and stay alone in their run,
    ** even in a value misread whole: "DOHÚŽVE", "BATÔŽIK", "ERÖŠOVÁ",
    ** "Úžina" beside "CafÃ©" (every Slovak word of the hunspell list
    ** that holds one was changed so); Õ inside a word, Estonian
    ** "TALÕŠŠ" (at a word's start "ÕŠ" is Armenian Պ misread) */
    c->level = b0==0xD3 || b0==0xD4 || b0==0xD6 || b0==0xDA || b0==0xDD
            || (b0==0xD5 && is_ascii_alpha(prev)) ? 0 : 1;
    if( c->level==0 && prev<0x80 ) c->word_end = 1;
  }else if( v.codepoint==0x2BC ){
    /* "Ê¼", Ukrainian's apostrophe ʼ: among misread Cyrillic letters
    ** ("ÐžÐ±Ê¼Ñ”ÐºÑ‚" for Обʼєкт), not alone */
    c->level = 1;
  }else{
    c->level = 2;                        /* Ð¸, Îº, Ñƒ */
  }
  /* IPA in a transcription: only where every character is misread, never
  ** the evidence that a value is ("/Ëˆ/" beside MacRoman's "‚Ä¶") */
  if( ipa ){
    c->level = 0;
    c->word_end = 0;
  }
  return 1;
}

static void emit(pass_ctx *x, const unsigned char *z, size_t len){
  if( x->out ) memmove(x->out + x->o, z, len);
  x->o += len;
}

/* After writing character d: how many continuation bytes the text written
** so far wants, read as bytes of the charset (the next pass's view). */
static int track(const pass_ctx *x, int pending, uint32_t d){
  int b = enc_byte(x->cs, d);
  if( lead_len(b) ) return lead_len(b) - 1;
  if( b>=0x80 && b<=0xBF && pending>0 ) return pending-1;
  return 0;
}

/* Rule 6 for the run s[a..b): its last character is Â with a space after. */
static int nbsp_at_end(const pass_ctx *x, size_t a, size_t b, uint32_t before_run){
  if( b>=x->n || x->s[b]!=' ' || b-a<2 ) return 0;
  if( x->s[b-2]!=0xC3 || x->s[b-1]!=0x82 ) return 0;
  if( x->rescue==2 ) return 1;
  if( b-2!=a ) return 0;
  return before_run>='0' && before_run<='9';        /* "10Â km", not "A/Â km" */
}

/*
** Is x->s text lowered by a lower() that knows only ASCII (SQLite's):
** an ASCII small letter, a capital outside ASCII, an ASCII small letter
** ("irmÃo", "aÇÃo", "hỘi")? Misread text puts a continuation character
** after a misread capital, never an ASCII letter.
*/
static int ascii_lowered(const pass_ctx *x){
  size_t i;
  for(i=1; i+1<x->n; i++){
    if( x->s[i]>=0xC3 && is_ascii_small(x->s[i-1]) ){
      utf8_unit u = utf8_decode_valid(x->s+i);
      uint32_t c = u.codepoint;
      int cap = upper_ext(c) || (c>=0x1E00 && c<=0x1EFF && (c&1)==0);
      if( cap && i+u.length<x->n && is_ascii_small(x->s[i+u.length]) ) return 1;
    }
  }
  return 0;
}

/*
** Rule 6 for à (C3 A0, "Ã" + NBSP misread) whose NBSP became a space or
** was lost: the run s[a..b) ends in "Ã" with a space after. No word
** puts the capital Ã after small letters, so after one it is à in a
** value known misread ("voilÃ le" beside "Ã©") that an ASCII-only
** lower() did not write (it makes "irmÃ e irmÃo" of IRMÃ E IRMÃO, and
** "irmÃ  e" of a double space); after "qu" and an apostrophe it is à
** alone ("jusqu'Ã", "qu’Ã": Guarani "KO'Ã" is ko'ã); standing as a word of its own only in a value known
** misread and where the NBSP shows: two spaces ("Ã  bientôt"), the
** value's end ("cittÃ " + end: no value ends in a space) or a comma,
** full stop or parenthesis after it (no language spaces those), "s"
** and a space (Portuguese "Ã s" for às, Catalan "-Ã s" for -às: no
** word is "s"), or "Ã quele" for àquele ("Let Ã denote" is
** mathematics, "A, Ã, B" lists the letter). Returns 0, or 2 when the
** space was the NBSP (those cases: the space goes), 3 when the space is
** the text's own (it stays).
*/
static int agrave_at_end(const pass_ctx *x, size_t a, size_t b, uint32_t before_run){
  uint32_t before;
  const unsigned char *t;
  size_t rest;
  int alone;
  if( x->cs!=UTF8_MOJI_CP1252 || b>=x->n || x->s[b]!=' ' || b-a<2 ) return 0;
  if( x->s[b-2]!=0xC3 || x->s[b-1]!=0x83 ) return 0;
  if( b-2==a ){
    before = before_run;
  }else{
    size_t k = b-3;
    while( k>a && (x->s[k]&0xC0)==0x80 ) k--;
    before = utf8_decode_valid(x->s+k).codepoint;
  }
  alone = b-2==a && apart(before_run) && before_run!='\'';
  if( !(b-2==a && is_ascii_small(before) && x->rescue>=1 && !x->lowered)
   && !(b-2==a && before=='\'' && a>=3 && memcmp(x->s+a-3, "qu", 2)==0)
   && !(b-5==a && before==0x2019 && a>=2 && memcmp(x->s+a-2, "qu", 2)==0)
   && !(alone && x->rescue>=1) ){
    return 0;
  }
  t = x->s + b + 1;
  rest = x->n - b - 1;
  if( rest==0 || t[0]==' ' || t[0]==',' || t[0]=='.' || t[0]==')'
   || (t[0]=='s' && (rest==1 || t[1]==' ')) ) return 2;
  if( alone ){
    /* as a word of its own, its NBSP must show: "Let Ã denote" is
    ** mathematics even beside misread text */
    return rest>=4 && (memcmp(t, "quel", 4)==0 || memcmp(t, "quil", 4)==0) ? 2 : 0;
  }
  return 3;
}

/* A Cyrillic letter А..я (D0 90..D1 8F) at s[i]? */
static int cyr_letter_at(const pass_ctx *x, size_t i){
  return i+1<x->n && ((x->s[i]==0xD0 && x->s[i+1]>=0x90)
                   || (x->s[i]==0xD1 && x->s[i+1]<=0x8F));
}

/*
** Rule 8: is the cp1251 run s[a..b), which gives d and whose characters
** after the first are second and last, glued to a Latin word? 2 with an
** ASCII letter before it (inside the word), 1 with one only after it (at
** the word's start), 0 not. Cyrillic and Latin letters that look alike
** do get mixed in one word (OCR, two keyboard layouts, spam), so:
** - the word has no Cyrillic letter of its own beyond its Latin letters:
**   a letter А..я there, unless a character of bytes 80-BF follows it
**   (a misread run starts so: "MГјllerвЂ™s"), is a Cyrillic word typed
**   on two keyboards ("Діaгностика", "Гіpockoп"; a misread run never
**   ends in А..я);
** - next to a capital, the run's second character is no Latin twin
**   (Ѕ І Ј Ё Ї: "PAДІO", "WЕІGHT") and some letter of the word is no
**   capital with a Cyrillic twin ("CPЕЋA"); before a closing mark, the
**   capital next to the run has none ("DVDВ»", not "«Канал TВ»",
**   "«PORSCHЕ»");
** - at a word's start, the Latin letters after it are not all twins of
**   small Cyrillic letters ("Гђa", "Гіpo", "Дјeca"), and Е is not
**   followed by a Latin twin ("Еіght", "Еѕsays");
** - not across an apostrophe or an NBSP after it ("Ъ’s" is a Cyrillic
**   word's possessive, "Е" + NBSP + "and" a letter and a word);
** - not after a small letter when it gives a capital ("abcГ“").
*/
static int twin_upper(unsigned char c){
  return c>='A' && c<='Z' && strchr("ABCEHIJKMOPSTXY", c)!=0;
}
static int latin_twin(uint32_t u){
  return u==0x401 || u==0x405 || u==0x406 || u==0x407 || u==0x408
      || u==0x451 || u==0x455 || u==0x456 || u==0x457 || u==0x458;
}
static int twin_lower(unsigned char c){
  return c>='a' && c<='z' && strchr("acejikopsxy", c)!=0;
}
/* cp1251's signs of bytes 80-BF that no word, Cyrillic or Latin, holds
** between its letters: † ‡ € ‰ • U+0098 ¤ ¦ § © ¬ SHY ® ± µ ¶ · (not
** the quotes, dashes and closing marks, ™, ° of "Т°", № of "Д№"). */
static int inner_sign(uint32_t u){
  return u==0x2020 || u==0x2021 || u==0x20AC || u==0x2030 || u==0x2022 || u==0x98
      || u==0xA4 || u==0xA6 || u==0xA7 || u==0xA9 || u==0xAC || u==0xAD
      || u==0xAE || u==0xB1 || u==0xB5 || u==0xB6 || u==0xB7;
}
/* One side for glued_latin(): s[p..q) the word's ASCII letters on that
** side, s[near] the one next to the run; start: nothing Latin before it. */
static int glued_side(const pass_ctx *x, size_t near, size_t p, size_t q,
                      uint32_t second, int start, int case_break){
  size_t k;
  unsigned char c = x->s[near];
  if( (p>=2 && cyr_letter_at(x, p-2))
   || (cyr_letter_at(x, q) && !(q+2<x->n && x->s[q+2]>=0x80 && !cyr_letter_at(x, q+2))) ){
    return 0;
  }
  /* a sign that no Cyrillic word holds ("Г§a" for ça, "AГ©" for Aé:
  ** § ©, not a closing mark or quote that may end one, "«Канал TВ»") */
  if( inner_sign(second) ) return 1;
  /* a capital then a small letter after a Latin letter: no Cyrillic word
  ** is spelled so, a word of capitals has no small letter and a word in
  ** Title Case no capital inside ("SГѓ" for SÃ, "AГљH" for AÚH) */
  if( case_break ) return 1;
  if( c>='a' && c<='z' ){
    /* at a word's start, "Гђa", "Гіpo", "Дјeca": Latin letters after it
    ** that all have a Cyrillic twin are a Cyrillic word typed on two
    ** keyboards as often ("pГЈo" for pão, inside a word, is undone) */
    if( !start || (q<x->n && x->s[q]>=0x80) ) return 1;  /* "Г‡aДџrД±" */
    for(k=p; k<q; k++) if( !twin_lower(x->s[k]) ) return 1;
    return 0;
  }
  if( latin_twin(second) ) return 0;
  /* a closing mark or an NBSP after a capital: "TВ»" is ТВ typed on
  ** two keyboards, "PORSCHЕ»" ends in a look-alike (9.10.14), "TASSЕ…"
  ** and "KPGSЕ" + NBSP are codes; but S alone before a misread NBSP is
  ** the Czech and Slovak preposition bound to its word ("SВ" + NBSP +
  ** "pozdravem"; no Russian word is Ѕ; "SЖ" + NBSP is a code) */
  if( second==0xA0 && q-p==1 && c=='S' && q+1<x->n && x->s[q]==0xD0 && x->s[q+1]==0x92 ) return 1;
  /* a word of one capital, then Г and an NBSP (à) or, after O, №
  ** (ù), before a space: "HГ" + NBSP + " Nб»™i" (Hà Nội), French "OГ№"
  ** (Où). Г is a twin of nothing, NBSP then a space is nobody's
  ** typography, and no code glues them so to one letter ("HГ" + NBSP +
  ** "-976" may be one; "SГ" + NBSP + "rl", Sàrl, stays) */
  /* Sàrl, a Swiss company's form: "SГ" + NBSP + "rl" */
  if( q-p==1 && near==p && c=='S' && second==0xA0 && q+8<=x->n && x->s[q]==0xD0
   && x->s[q+1]==0x93 && x->s[q+4]=='r' && x->s[q+5]=='l'
   && (q+6==x->n || !in_word_at(x, q+6)) ) return 1;
  if( q-p==1 && near==p && q+1<x->n && x->s[q]==0xD0 && x->s[q+1]==0x93
   && (p==0 || x->s[p-1]==' ') && (second==0xA0 || (second==0x2116 && c=='O')) ){
    size_t e = q+2+(second==0xA0 ? 2 : 3);        /* after Г and its second */
    if( e>=x->n || x->s[e]==' ' ) return 1;
  }
  if( second==0xA0 ) return !twin_upper(c);
  /* a closing mark or quote after S or J, the run after the word
  ** (Polish "OBSUSZAJД„C" for OBSUSZAJĄC): a Latin word where Latin text
  ** misread whole is being read (the counting pass, x->latin_whole);
  ** elsewhere codes end so ("TASSЕ…", "SJИ›-80" beside real Russian) */
  if( is_closing(second) || any_quote(second) ){
    return near+1==q && (x->rescue==0 || x->latin_whole) ? !russian_twin_upper(c) : !twin_upper(c);
  }
  for(k=p; k<q; k++) if( !twin_upper(x->s[k]) ) return 1;
  return 0;
}

/* Latin letters text hardly uses, which a real Cyrillic word of two
** letters glued to a Latin one gives: Ÿ ("Её"), ĳ Ĳ ("Ді"), ĸ ŉ ſ. */
static int rare_latin(uint32_t d){
  return d==0x178 || d==0x132 || d==0x133 || d==0x138 || d==0x149 || d==0x17F;
}
/* Is the run s[a..b), giving d, the č of Czech crowns after a number
** ("3754,03 Kč", "374,- Kč", "12" + NBSP + "500" + NBSP + "Kč"; misread, the NBSP
** is misread too: "Â" + NBSP under cp1250, "В" + NBSP under cp1251)?
** Then K glued to it is no word of capitals ("KÄŤ" beside Slovak "PÄŤ",
** five; "KДЌ" beside a Cyrillic word typed on two keyboards). */
static int czech_crowns(const pass_ctx *x, size_t a, size_t b, uint32_t d){
  size_t q;
  if( d!=0x10D || a<3 || x->s[a-1]!='K' ) return 0;
  if( b<x->n && (is_ascii_alnum(x->s[b]) || x->s[b]>=0x80) ) return 0;
  q = a-1;                                  /* K */
  if( x->s[q-1]==' ' ) q--;
  else if( x->s[q-1]==0xA0 && x->s[q-2]==0xC2 ){
    q -= 2;
    if( q>=2 && ((x->s[q-2]==0xC3 && x->s[q-1]==0x82) || (x->s[q-2]==0xD0 && x->s[q-1]==0x92)) ) q -= 2;
  }else return 0;
  if( q>=3 && x->s[q-1]=='-' && x->s[q-2]==',' ) q -= 2;    /* "374,- Kč" */
  return q>=1 && x->s[q-1]>='0' && x->s[q-1]<='9';
}

/* Is s[k] part of a word for caps_untwinned(): an ASCII letter, or a
** byte of a character other than ASCII and an NBSP? */
static int in_word_at(const pass_ctx *x, size_t k){
  unsigned char c = x->s[k];
  if( c<0x80 ) return is_ascii_alpha(c);
  return !((c==0xC2 && k+1<x->n && x->s[k+1]==0xA0) || (c==0xA0 && k>0 && x->s[k-1]==0xC2));
}
/* Is the word around s[a..b), read on across other non-ASCII characters
** up to a space, an NBSP or ASCII punctuation, one of ASCII capitals, one
** of them with no Cyrillic twin ("ГЃRUSГЌTГЃS": R U)? A Cyrillic word typed
** on two keyboards mixes in twins alone ("KИЇB"); a small letter is
** another word glued on ("ABГ‘Esquàlida", "PRICГ’Stock"). */
static int caps_untwinned(const pass_ctx *x, size_t a, size_t b){
  size_t l = a, r = b, k;
  int untwinned = 0;
  while( l>0 && in_word_at(x, l-1) ) l--;
  while( r<x->n && in_word_at(x, r) ) r++;
  for(k=l; k<r; k++){
    if( x->s[k]>=0x80 ) continue;
    if( !is_upper(x->s[k]) ) return 0;
    if( !twin_upper(x->s[k]) ) untwinned = 1;
  }
  return untwinned;
}

/* After Д, a letter of Serbian or Macedonian that gives a letter of
** Latvian, Czech, Slovak, Croatian or Turkish (Ā ā Č č Ď ď Đ Ě Ğ ğ Ľ ľ;
** not Ċ Ĝ ĝ, "ДЉ" "Дњ" of Maltese and Esperanto). */
static int serbian_after_d(uint32_t u){
  return u==0x402 || u==0x403 || u==0x40A || u==0x40C || u==0x40B || u==0x40F
      || u==0x452 || u==0x45A || u==0x45B || u==0x45F || u==0x405 || u==0x455;
}
/* Does the word around s[a..b) hold an ASCII letter with no Cyrillic
** twin, or Г then a sign or a Serbian letter (a misread Latin-1 letter:
** "ДЊESKГЃ" holds ГЃ)? A Serbian word of capitals typed with Latin
** look-alikes ("ДЊECTAP" for Дњестар) holds neither. */
static int word_untwinned(const pass_ctx *x, size_t a, size_t b){
  size_t l = a, r = b, k;
  while( l>0 && in_word_at(x, l-1) ) l--;
  while( r<x->n && in_word_at(x, r) ) r++;
  for(k=l; k<r; k++){
    unsigned char c = x->s[k];
    if( c<0x80 ){
      if( (is_upper(c) && !twin_upper(c)) || (is_ascii_small(c) && !twin_lower(c)) ) return 1;
    }else if( c==0xD0 && k+3<r && x->s[k+1]==0x93 && x->s[k+2]>=0xC2 ){
      uint32_t u = utf8_decode_valid(x->s+k+2).codepoint;
      int byte = enc_1251(u);
      /* not a twin nor a letter of Ukrainian or Belarusian (Є Ґ Ў) */
      if( byte>=0x80 && byte<=0xBF && !latin_twin(u) && u!=0x404 && u!=0x454 && u!=0x490
       && u!=0x491 && u!=0x40E && u!=0x45E ) return 1;
    }
  }
  return 0;
}
static int glued_latin(const pass_ctx *x, size_t a, size_t b, uint32_t d,
                       uint32_t second, uint32_t last){
  size_t p, q;
  int start = !(a>0 && is_ascii_alpha(x->s[a-1]));   /* at a word's start */
  uint32_t first = utf8_decode_valid(x->s+a).codepoint;
  int case_break = !start && ((first>=0x400 && first<=0x42F) || first==0x490)
                && ((second>=0x430 && second<=0x45F) || second==0x491);
  if( czech_crowns(x, a, b, d) ) return 2;
  /* a Vietnamese letter only after a Latin one: "69б»—Lviv" is a Russian
  ** house number in quotes glued to a dash */
  if( start && viet_letter(d) ) return 0;
  /* a capital after a small letter is no word's spelling ("abcГ“" would
  ** give Ó, "abcД»" Ļ): only a word of capitals glues before it */
  if( !start && upper_ext(d) && x->s[a-1]>='a' ) return 0;
  /* a Vietnamese capital after an ASCII capital ("THб»Љ" for THỊ): б
  ** then » or є and a third is in no Cyrillic word a Latin capital may
  ** stand for, whatever its twins; not ending in an NBSP, a closing mark
  ** or a quote ("Styleб»" + NBSP, a Russian word's end glued on), nor in
  ** a value with real text beside (rescue 1: "Лекция «Mб»† прошла") */
  if( (x->rescue!=1 || x->latin_whole) && !start && is_upper(x->s[a-1])
   && viet_letter(d) && !(d&1) && last!=0xA0 && !is_closing(last) && !any_quote(last) ) return 2;
  if( !start ){
    for(p=a-1; p>0 && is_ascii_alpha(x->s[p-1]); p--){}
    /* the letters before glued to a run read as a Latin letter: the word
    ** is Latin, misread ("ДЊESKГЃ" for ČESKÁ, "NГЃMДљSTГЌ" NÁMĚSTÍ), where
    ** Latin text misread whole is read */
    if( (x->rescue==0 || x->latin_whole) && x->after_latin ) return 2;
    if( glued_side(x, a-1, p, a, second, 0, case_break) ) return 2;
    /* a capital inside a word of capitals, ASCII ones on both sides
    ** ("BГ„CKEREI" for BÄCKEREI, "SPOЕ»YWCZY" SPOŻYWCZY: Г then „, Е then
    ** » glue no Cyrillic word to Latin letters), when the word holds a
    ** letter with no Cyrillic twin (caps_untwinned()); not a Latin twin
    ** second ("DЕЅIGN"). Only where Latin text misread whole is read (the
    ** counting pass, x->latin_whole): beside misread Russian a code of
    ** capitals may hold it ("ABГ…TROMF") */
    if( (x->rescue==0 || x->latin_whole) && b<x->n && is_upper(x->s[b]) && is_upper(x->s[a-1])
     && (upper_ext(d) || (viet_letter(d) && !(d&1)))
     && !latin_twin(second) && second!=0xA0 && caps_untwinned(x, a, b) ) return 2;
  }
  /* Е or Д then ‘ before small ASCII letters, starting a word or after
  ** its one capital: Hungarian ő, Croatian đ ("KЕ‘rГ¶si" for Kőrösi,
  ** "Д‘orД‘e" đorđe); no text opens a quote glued to a letter before it.
  ** Д then – in a word of ASCII capitals one of which has no Cyrillic
  ** twin, at its end or before a capital: Lithuanian Ė ("DД–MESIO",
  ** "SAVIVALDYBД–"); not before a digit, a code ("PRICД–100") */
  if( (x->rescue==0 || x->latin_whole) && x->s[a]==0xD0 ){
    if( (x->s[a+1]==0x94 || x->s[a+1]==0x95) && second==0x2018 && b+1<x->n
     && is_ascii_small(x->s[b]) && (is_ascii_small(x->s[b+1]) || x->s[b+1]>=0x80)
     && (start || (is_upper(x->s[a-1]) && (a<2 || !is_ascii_alpha(x->s[a-2])))) ) return start ? 1 : 2;
    if( x->s[a+1]==0x94 && second==0x2013 && !start && is_upper(x->s[a-1])
     && (b>=x->n || is_upper(x->s[b]) || (x->s[b]<0x80 && !is_ascii_alnum(x->s[b]) && x->s[b]!='-'))
     && caps_untwinned(x, a, b) ) return 2;
  }
  /* Д then ‚ glued to ASCII letters: Romanian Ă ("PROASPД‚TД‚",
  ** "BД‚LAN"); no text puts a low single quote after a Cyrillic Д. Е then
  ** » starting a word before ASCII letters: Polish Ż ("Е»ABKA"); no
  ** closing guillemet opens a word, nor a German » one glued to a Е */
  if( (x->rescue==0 || x->latin_whole) && x->s[a]==0xD0
   && ((x->s[a+1]==0x94 && second==0x201A) || (start && x->s[a+1]==0x95 && second==0xBB))
   && ((!start && (x->s[a-1]>='A' && x->s[a-1]<='Z'))
       || (b<x->n && is_ascii_alpha(x->s[b]))) ) return start ? 1 : 2;
  /* Д then a letter of Serbian or Macedonian starting a word before
  ** Latin letters (serbian_after_d()): Č Ľ Ď ("ДЊESKГЃ" for ČESKÁ,
  ** "ДЅUPTГЃK" ĽUPTÁK), when the word holds what no Cyrillic word typed
  ** with Latin look-alikes does (word_untwinned(): "ДЊECTAP" is Serbian
  ** Дњестар so; "ДЊIKA" stays) */
  if( start && x->s[a]==0xD0 && x->s[a+1]==0x94 && serbian_after_d(second)
   && b<x->n && is_ascii_alpha(x->s[b]) && (x->rescue==0 || x->latin_whole)
   && word_untwinned(x, a, b) ) return 1;
  /* at a word's start, Е then a Latin twin is "Еіght", "Еѕsays" (English
  ** with Cyrillic letters that look alike) as often as ų or ž */
  if( start && d>=0x140 && d<=0x17F && latin_twin(second) ) return 0;
  /* a capital starting a word of capitals that holds a letter with no
  ** Cyrillic twin ("ДЊAДЊANSKA" for ČAČANSKA, "Д°STД°KLAL" İSTİKLAL), as
  ** the one inside above */
  if( (x->rescue==0 || x->latin_whole) && start && b<x->n && is_upper(x->s[b])
   && upper_ext(d) && !latin_twin(second)
   && second!=0xA0 && caps_untwinned(x, a, b) ) return 1;
  if( b<x->n && is_ascii_alpha(x->s[b]) && last!=0x2019 && last!=0x2018 && last!=0xA0 ){
    for(q=b+1; q<x->n && is_ascii_alpha(x->s[q]); q++){}
    if( glued_side(x, b, b, q, second, start, case_break) ) return start ? 1 : 2;
  }
  return 0;
}

/*
** Rule 8's evidence. Capitals of Ukrainian, Belarusian and Serbian are
** followed by І Ї Є Ў Ј and the like, cp1251's bytes 80-BF, so a word of
** capitals is a run of candidates ("СІТІ" would give ѲҲ, "ДІДІ" ĲĲ,
** "ВІШІ" ²ز). What those give, no misread text is made of: Cyrillic
** letters outside the languages cp1251 is for (U+0460-U+04FF but Ґ ґ),
** Greek outside the modern alphabet, Yiddish ligatures, rare_latin(),
** and ² ³ but after a Cyrillic letter (the "ВІ" "Ві" of every Ukrainian
** text; misread "м²" is "РјВІ"), a superscript or a small Greek letter
** ("10вЃ»Ві" 10⁻³, "ПѓВІ" σ²). Those do not count toward a run's two
** candidates; and two letters side by side are of one script ("ХІРІ"
** would give Armenian ղ then в, "Хіміє" ճ then 쳺).
*/
enum { SCRIPT_NONE, SCRIPT_LATIN, SCRIPT_GREEK, SCRIPT_CYRILLIC, SCRIPT_ARMENIAN,
       SCRIPT_HEBREW, SCRIPT_ARABIC, SCRIPT_EAST_ASIAN };
static int script_of(uint32_t d){
  if( latin_letter(d) ) return SCRIPT_LATIN;
  if( d>=0x370 && d<=0x3FF ) return SCRIPT_GREEK;
  if( d>=0x400 && d<=0x52F ) return SCRIPT_CYRILLIC;
  if( d>=0x530 && d<=0x58F ) return SCRIPT_ARMENIAN;
  if( d>=0x590 && d<=0x5FF ) return SCRIPT_HEBREW;
  if( d>=0x600 && d<=0x6FF ) return SCRIPT_ARABIC;
  if( (d>=0x1100 && d<=0x11FF) || (d>=0x2E80 && d<=0x9FFF) || (d>=0xAC00 && d<=0xD7AF) ){
    return SCRIPT_EAST_ASIAN;                        /* Hangul, CJK, kana */
  }
  return SCRIPT_NONE;                                /* signs */
}
/* before: the script of the candidate before d in its run */
static int odd_1251(uint32_t d, int before){
  return (d>=0x460 && d<=0x4FF && d!=0x490 && d!=0x491)
      || (d>=0x370 && d<=0x385) || (d>=0x3CF && d<=0x3FF)
      || (d>=0x5F0 && d<=0x5F4) || rare_latin(d)
      || ((d==0xB2 || d==0xB3) && before!=SCRIPT_CYRILLIC);
}

/* A capital of Serbian and Macedonian among cp1251's bytes 80-BF
** (Ђ Ѓ Ѕ Ј Љ Њ Ћ Ќ Џ). */
static int serbian_capital(uint32_t u){
  return u==0x402 || u==0x403 || u==0x405 || u==0x408 || u==0x409 || u==0x40A
      || u==0x40B || u==0x40C || u==0x40F;
}
/* The letters that follow a consonant in Ukrainian and Belarusian
** syllables (і ї є ґ ў): a slip of the Shift key makes them capitals
** inside a real word ("ФілІї", "НіГіРі"), so a change of case next to
** them proves nothing. */
static int syllable_letter(uint32_t u){
  return u==0x406 || u==0x456 || u==0x407 || u==0x457 || u==0x404 || u==0x454
      || u==0x490 || u==0x491 || u==0x40E || u==0x45E;
}

/*
** Rule 8's candidates of a run give letters of two scripts
** ("РўРѕРєРёРѕжќ±дє¬" of Токио東京): real Ukrainian words do too, their
** capitals ("ВІШІ" would give ² and ز) and Title Case ("Хіміє" ճ and
** 쳺), so such a run is undone only when its characters spell no
** Cyrillic word. Misread Cyrillic alternates Р and С, the misreadings of
** the bytes D0 and D1, with a small sign or letter ("РѕРєРёРѕ"): twice
** in the run a small letter then Р or С, the small one not a
** syllable_letter(), is what no real word holds. Once is a Shift slip or
** two words glued ("ЕёРІШІ"), and other capitals after a small letter
** are short words glued ("ЕјОјЕј", Serbian "hey oh hey": żμż).
*/
static int no_cyrillic_word(const pass_ctx *x, size_t a, size_t b){
  int small = 0, breaks = 0;
  while( a<b ){
    utf8_unit u = utf8_decode_valid(x->s+a);
    uint32_t d = u.codepoint;
    if( (d==0x420 || d==0x421) && small && ++breaks==2 ) return 1;
    small = ((d>=0x430 && d<=0x45F) || d==0x491) && !syllable_letter(d);
    a += u.length;
  }
  return 0;
}

/*
** Rule 8's run s[a..b) of ncand candidates whose letters are of two
** scripts (mix_first, mix_last: the later candidate of the first and
** last pair that changes script), none odd_1251(). Undone only when it
** spells no Cyrillic word (no_cyrillic_word()), holds no NBSP (a real
** word bound to the next one: "ГІД" + NBSP + a misread word would give
** òĠ), and stays mixed without its first or last candidate where that
** gives a Latin letter or is glued to an ASCII letter or digit: a real
** token glued to misread text ends so ("SM-Г”" would give Ô, "ХХ8161ЕІ"
** Ų).
*/
static int mixed_no_word(const pass_ctx *x, size_t a, size_t b, size_t ncand,
                         size_t mix_first, size_t mix_last, int first_sc, int last_sc){
  if( nbsp_among(x, a, b) ) return 0;
  if( (first_sc==SCRIPT_LATIN || (a>0 && is_ascii_alnum(x->s[a-1]))) && mix_last<2 ) return 0;
  if( (last_sc==SCRIPT_LATIN || (b<x->n && is_ascii_alnum(x->s[b]))) && mix_first+2>ncand ) return 0;
  return no_cyrillic_word(x, a, b);
}

/*
** The rescue of a lone East Asian character (rules 8 and 9): a run that is
** one candidate of three characters, wholly, giving CJK, kana or Hangul,
** standing apart (no ASCII letter or digit on either side) and with no
** NBSP inside ("é" + NBSP + "»" is French). Misread, a Chinese word of
** one character is that ("çš™" for 皙 under cp1250, "Áöô" under
** MacRoman, "зљ™" under cp1251); no word of a Latin-script language is
** three such characters standing alone. A one-letter word ending a
** quotation is real text ("é…»" in Portuguese, "и…»" in Russian): a
** letter and two closing marks stay; so does, under cp1251, a Cyrillic
** letter and two more ("дії" is Ukrainian).
*/
static int lone_east_asian(const pass_ctx *x, size_t a, size_t b, uint32_t before_run,
                           size_t ncand, const cand *c){
  if( ncand!=1 || c->nchars!=3 || script_of(c->d)!=SCRIPT_EAST_ASIAN ) return 0;
  if( nbsp_among(x, a, b) || !(b>=x->n || apart(x->s[b]))
   || !(apart(before_run) || script_of(before_run)==SCRIPT_EAST_ASIAN) ) return 0;
  if( (is_closing(c->second) || any_quote(c->second))
   && (is_closing(c->last) || any_quote(c->last)) ) return 0;
  if( x->cs==UTF8_MOJI_CP1251 ){
    int l2 = letter(c->second) || (c->second>=0x400 && c->second<=0x45F);
    int l3 = letter(c->last) || (c->last>=0x400 && c->last<=0x45F);
    /* the lead is a small letter: a capital of Serbian after it spells
    ** no word ("иѕЂ" for 辀); a syllable letter or Ё is a slip of Shift
    ** ("дІї" is дії, "мЁў" Belarusian мёў) */
    if( l2 && l3 && !serbian_capital(c->second) && !serbian_capital(c->last) ) return 0;
  }
  return 1;
}

/* Rule 8: is the candidate c, led by в, a sign of U+2190..U+2BFF
** (arrows, mathematics, technical, enclosed, box drawing, shapes,
** dingbats: "в†’" for →, "вњ“" ✓, "в–  " ■)? Its second character is one
** no word puts after в: a sign ("в€ћ" ∞), U+0098 ("★" misread), a
** Serbian letter, a mark; not a capital or a letter of Ukrainian or
** Belarusian (Ї Ґ Ё Є Ў Ј), NBSP (the typography of "в" + NBSP + «),
** «. A mark, or a sign that follows words (® ° • €), then a closing
** mark or quote is the preposition в glued to punctuation ("в—»",
** "в“…", "в®”", "Цена в€…" for в €), and so is a quote or € then NBSP
** (the word "в" quoted: “в” + NBSP); U+0098 † and the like no text puts
** there ("в" + U+0098 + "…" is ★, "в†’" →).
*/
static int symbol_1251(const cand *c){
  uint32_t u = c->second;
  unsigned byte = 0x80 | ((c->d>>6) & 0x3F);       /* u's cp1251 byte */
  if( c->d<0x2190 || c->d>0x2BFF ) return 0;
  if( byte>=0xA0 && !inner_sign(u) ) return 0;
  if( u==0xAD && c->last>=0x400 && c->last<=0x491 ) return 0;   /* "в" + SHY + "і" */
  if( (is_closing(u) || u==0x2022 || after_word(u) || u==0x20AC)
   && (is_closing(c->last) || any_quote(c->last)) ) return 0;
  /* € then NBSP ("в€" + NBSP + "100"); a quote then anything but a sign
  ** no word holds: the word "в" quoted («“в”» + NBSP), a quoted word
  ** ("в“№5”") */
  if( u==0x20AC && c->last==0xA0 ) return 0;
  if( any_quote(u) && !inner_sign(c->last) ) return 0;
  return 1;
}

/* The Greek letters science writes as symbols: the small ones but final
** ς, and the capitals unlike Latin ones (Γ Δ Θ Λ Ξ Σ Φ Ψ Ω). */
static int greek_symbol(uint32_t d){
  return (d>=0x3B1 && d<=0x3C9 && d!=0x3C2) || d==0x393 || d==0x394 || d==0x398
      || d==0x39B || d==0x39E || d==0x3A3 || d==0x3A6 || d==0x3A8 || d==0x3A9;
}
/*
** Rule 8's rescue of one Greek letter alone in its run, in a value misread
** throughout (rescue 2: every character in a candidate, no real Cyrillic
** word beside): a symbol of science or mathematics ("О±-частицы" for
** α-частицы, "10 Ојm" μm, "О» = 550 нм" λ, "О”T" ΔT). Its run is О or П
** then a sign or a Serbian letter, which no Cyrillic word is, giving a
** small letter or a capital unlike Latin ones (greek_symbol(): "О’Neil"
** typed with a Cyrillic О would give Β), not a look-alike of Latin
** letters glued to Latin ones. Not the
** one-letter words О and П before what follows a word: an NBSP (the
** preposition о bound to its word would give Π), a dash, a soft hyphen,
** a bullet; nor after an ASCII quote ("\"О»"); an ellipsis, or "»" in a
** value that opens a misread "В«", only glued to a letter or a digit
** after it ("О…" is an exclamation, «О» a quoted letter). A real "«"
** or "“" opening "О»" or "О”" would be in no candidate: not rescue 2.
*/
static int greek_1251(const pass_ctx *x, size_t b, uint32_t before_run, const cand *c){
  uint32_t u = c->second;
  if( c->nchars!=2 || !greek_symbol(c->d) ) return 0;
  if( u==0xA0 || u==0xAD || u==0x2013 || u==0x2014 || u==0x2022 ) return 0;
  if( before_run=='"' || before_run=='\'' || before_run=='`' ) return 0;
  /* О and a twin of a Latin letter after a Latin letter or before a
  ** capital: a Latin word typed with look-alikes ("VLОЅ", "TARNОЅ",
  ** "ОЅES" would give ν; "10 ОІm" is 10 βm) */
  if( latin_twin(u) && (is_ascii_alpha(before_run) || (b<x->n && is_upper(x->s[b]))) ) return 0;
  if( c->d==0x3BC || c->d==0x3A3 ){
    /* "Ој" "ОЈ" (μ Σ) are Serbian's "oj" too: only before the Latin
    ** letters of a unit ("10 Ојm", "5Ојg", "Ојs"; "Ој2—3" is a word and a
    ** dash, "Ојa" Serbian typed with a look-alike) */
    return b<x->n && is_ascii_alpha(x->s[b]) && (!twin_lower(x->s[b]) || x->s[b]=='s');
  }
  if( u==0x2026 || (u==0xBB && x->opened) ) return b<x->n && is_ascii_alnum(x->s[b]);
  return 1;
}

/* Rule 8: is the cp1251 run s[a..b), wholly the candidate c, a sign
** that no text holds but misread: punctuation, currency or letterlike
** symbols led by в then Ђ Ѓ ‚ „ ("вЂ”" for —, "в‚¬" €, "в„–" №), which
** no word of any language is spelled with; arrows, mathematics, shapes
** and dingbats (symbol_1251()); an emoji ("рџ‘Ќ" for 👍: р then џ and a
** sign, which no Serbian word spells, "бунарџија" has a vowel after
** its џ); or a degree of Celsius or Fahrenheit after a number ("10 В°C"
** for 10 °C: the Cyrillic В is a word of its own, and no unit is
** written "В°C"). */
static int sign_alone(const pass_ctx *x, size_t a, size_t b, const cand *c){
  size_t k = a;
  if( c->nchars==4 ){
    return x->s[a]==0xD1 && x->s[a+1]==0x80 && x->s[a+2]==0xD1 && x->s[a+3]==0x9F
        && c->d>=0x1F000 && c->d<=0x1FAFF;
  }
  if( c->nchars==3 ){
    return x->s[a]==0xD0 && x->s[a+1]==0xB2
        && ((c->d>=0x2010 && c->d<=0x20BF) || (c->d>=0x2100 && c->d<=0x213F)
            || symbol_1251(c));
  }
  if( c->nchars!=2 || c->d!=0xB0 || x->s[a]!=0xD0 || x->s[a+1]!=0x92 ) return 0;
  if( k>0 && x->s[k-1]==' ' ) k--;
  if( !(k>0 && x->s[k-1]>='0' && x->s[k-1]<='9') ) return 0;
  return b<x->n && (x->s[b]=='C' || x->s[b]=='F')
      && !(b+1<x->n && is_ascii_alpha(x->s[b+1]));
}

/* Rule 8: is the cp1251 run s[a..b), wholly the candidate c that gives a
** sign, one that may stand beside Latin text misread whole: with no
** Latin letter glued on ("10 В°C" but for the degree's C or F), and not
** "В»", "В«" or В + NBSP, where В may be a word (the letter, the
** preposition в: «Витамин В»). Glued to Latin letters, glued_latin()
** decides ("BOВІK" is a Ukrainian word typed on two keyboards). */
static int sign_apart(const pass_ctx *x, size_t a, size_t b, const cand *c){
  uint32_t before = a>0 ? x->s[a-1] : ' ';
  /* an NBSP glued after a digit, between a number and a unit of one or
  ** two small letters or its groups of three digits ("75В" + NBSP +
  ** "m²", "47В" + NBSP + "kg", "12В" + NBSP + "500"); not "230В" + NBSP +
  ** "5W", + "AC", + "ac", + "dc" or + "max", where В is volts */
  if( c->d==0xA0 ){
    size_t k = b;
    if( !(before>='0' && before<='9') || b>=x->n ) return 0;
    if( is_ascii_small(x->s[b]) ){                        /* 75В + NBSP + m² */
      while( k<x->n && k<b+3 && is_ascii_small(x->s[k]) ) k++;
      /* "24В" + NBSP + "ac", "5В" + NBSP + "dc": volts */
      if( k==b+2 && (x->s[b]=='a' || x->s[b]=='d') && x->s[b+1]=='c' ) return 0;
      return k<=b+2 && !(k<x->n && is_ascii_alpha(x->s[k]));
    }
    while( k<x->n && k<b+4 && x->s[k]>='0' && x->s[k]<='9' ) k++;
    return k==b+3 && !(k<x->n && is_ascii_alnum(x->s[k])); /* 12В + NBSP + 500 */
  }
  /* "В«" and "В»" apart: the letter В may be a word («Витамин В»), but
  ** not where the value opens a misread guillemet (x->opened: "В« Bonjour
  ** В»" in Latin text misread whole) */
  if( c->d==0xAB || c->d==0xBB ) return x->opened;
  if( before<0x80 && is_ascii_alpha(before) ) return 0;
  if( b>=x->n || !is_ascii_alpha(x->s[b]) ) return 1;
  return c->d==0xB0 && (x->s[b]=='C' || x->s[b]=='F')
      && !(b+1<x->n && is_ascii_alpha(x->s[b+1]));
}

/* A Czech, Slovak or Polish month after a day's number, in the genitive. */
static int month_name(const unsigned char *z, size_t n){
  static const char *const months[] = {   /* Czech, Slovak, Polish genitives */
    "ledna", "dubna", "srpna", "listopadu", "prosince", "marca", "augusta",
    "septembra", "novembra", "decembra", "stycznia", "lutego", "kwietnia",
    "maja", "czerwca", "lipca", "sierpnia", "listopada", "grudnia" };
  size_t i;
  for(i=0; i<sizeof(months)/sizeof(months[0]); i++){
    if( strlen(months[i])==n && memcmp(months[i], z, n)==0 ) return 1;
  }
  return 0;
}

/*
** Is the cp1251 run s[a..b) the misread letter of a Czech or Slovak
** abbreviation of registers: "IДЊO", "DIДЊ" (IČO, DIČ: a company's
** numbers), "IДЊ DPH", "ЕЎ.p." (š.p., a state enterprise)? Their
** capitals all have Cyrillic twins, and Č is "ДЊ", Д then Њ.
*/
static int latin_abbrev(const pass_ctx *x, size_t a, size_t b){
  static const char *const words[] = { "I\xD0\x94\xD0\x8AO", "DI\xD0\x94\xD0\x8A",
                                       "\xD0\x95\xD0\x8E.p." };
  size_t i;
  if( b-a!=4 ) return 0;                          /* a run of two letters */
  for(i=0; i<sizeof(words)/sizeof(words[0]); i++){
    const char *w = words[i];
    size_t len = strlen(w), k;
    const char *at = strstr(w, "\xD0");                  /* the run in it */
    size_t before = (size_t)(at-w);
    if( a<before || a-before+len>x->n ) continue;
    k = a-before;
    if( memcmp(x->s+k, w, len)!=0 ) continue;
    if( (k>0 && in_word_at(x, k-1)) || (k+len<x->n && in_word_at(x, k+len)) ) continue;
    return 1;
  }
  return 0;
}

/* Is s[p..) "В" + NBSP, a misread NBSP? */
static int misread_nbsp_at(const pass_ctx *x, size_t p){
  return p+4<=x->n && x->s[p]==0xD0 && x->s[p+1]==0x92 && x->s[p+2]==0xC2 && x->s[p+3]==0xA0;
}
/* The digits of s[p..) (their count). */
static size_t digits_at(const pass_ctx *x, size_t p){
  size_t k = p;
  while( k<x->n && x->s[k]>='0' && x->s[k]<='9' ) k++;
  return k-p;
}
/*
** Is the misread NBSP s[a..b) one between groups of digits? A French
** telephone number, four pairs at least joined so ("01В" + NBSP + "23В"
** + NBSP + "45В" + NBSP + "67"), or thousands: one to three digits, not
** after a decimal sign, then groups of three, the last before the end or
** an ASCII sign but a space ("12В" + NBSP + "500,"). Not a pair after a
** number ("230В" + NBSP + "50 Hz": volts and a frequency), nor three
** before a space ("12В" + NBSP + "500 mA": volts and a current), nor a
** list of voltages ("5В" + NBSP + "12В" + NBSP + "24").
*/
static int digit_groups(const pass_ctx *x, size_t a, size_t b){
  size_t l = a, r = b, pairs = 0, n;
  int all_pairs = 1, thousands = 1;
  for(;;){                              /* back to the chain's first group */
    size_t k = l;
    while( k>0 && x->s[k-1]>='0' && x->s[k-1]<='9' ) k--;
    n = l-k;
    if( n==0 ) return 0;
    if( n!=2 ) all_pairs = 0; else pairs++;
    if( k>=4 && misread_nbsp_at(x, k-4) ){
      if( n!=3 ) thousands = 0;
      l = k-4;
      continue;
    }
    if( n>3 || (k>0 && (x->s[k-1]==',' || x->s[k-1]=='.')) ) thousands = 0;
    if( k>0 && (is_ascii_alpha(x->s[k-1]) || x->s[k-1]>=0x80) ) return 0;
    break;
  }
  for(;;){                              /* on to its last */
    n = digits_at(x, r);
    if( n==0 ) return 0;
    if( n!=2 ) all_pairs = 0; else pairs++;
    if( n!=3 ) thousands = 0;
    if( misread_nbsp_at(x, r+n) ){ r += n+4; continue; }
    r += n;
    break;
  }
  if( r<x->n && (x->s[r]>=0x80 || is_ascii_alpha(x->s[r])) ) return 0;
  if( all_pairs && pairs>=4 ) return 1;
  return thousands && !(r<x->n && x->s[r]==' ');
}

/*
** Rule 8: is the cp1251 run s[a..b), wholly the candidate c, a misread
** NBSP ("В" + NBSP) glued between a Latin word and what follows, that may
** stand beside Latin text misread whole: after letters, before a small
** letter ("ZLATIBORACВ" + NBSP + "a.d."); after a number, before a
** percent sign, Czech crowns ("500В" + NBSP + "KДЌ") or a Czech, Slovak
** or Polish month ("12В" + NBSP + "ledna", a date); between groups of
** digits (digit_groups(): a French telephone number "01В" + NBSP + "23В"
** + NBSP + "45В" + NBSP + "67", thousands "12В" + NBSP + "500,"); before : ; ! ? after a word or
** its full stop, French typography ("Tél.В" + NBSP + ": 01": no
** Cyrillic В stands so); after the full stop of an abbreviation, before
** a letter or a digit (Czech "odst.В" + NBSP + "2", "č.В" + NBSP + "89":
** Russian puts a space after a full stop). Not before a capital, nor a digit then a
** letter: "KPGSВ" + NBSP + "AB" may be a code, and В after a number is
** volts ("230В" + NBSP + "5W", "12В" + NBSP + "output").
*/
static int nbsp_glued(const pass_ctx *x, size_t a, size_t b, const cand *c){
  unsigned char before = a>0 ? x->s[a-1] : ' ';
  size_t k;
  if( c->d!=0xA0 || x->s[a]!=0xD0 || x->s[a+1]!=0x92 || b>=x->n ) return 0;
  if( (is_ascii_alpha(before) || (before=='.' && a>=2 && is_ascii_alpha(x->s[a-2])))
   && (x->s[b]==':' || x->s[b]==';' || x->s[b]=='!' || x->s[b]=='?') ) return 1;
  if( before=='.' && a>=2 && (is_ascii_alpha(x->s[a-2]) || x->s[a-2]>=0x80) ){
    return is_ascii_alnum(x->s[b]);
  }
  if( is_ascii_alpha(before) ) return is_ascii_small(x->s[b]);
  if( !(before>='0' && before<='9') ) return 0;
  if( x->s[b]=='%' ) return 1;
  if( digit_groups(x, a, b) ) return 1;
  if( x->s[b]=='K' && b+5<=x->n && x->s[b+1]==0xD0 && x->s[b+2]==0x94
   && x->s[b+3]==0xD0 && x->s[b+4]==0x8C ){
    return b+5>=x->n || !is_ascii_alnum(x->s[b+5]);         /* "KДЌ" */
  }
  for(k=b; k<x->n && is_ascii_small(x->s[k]); k++){}
  if( k<x->n && is_ascii_alnum(x->s[k]) ) return 0;
  return month_name(x->s+b, k-b);
}

/*
** Rule 8: may the cp1251 run s[a..b), wholly the candidate c, stand
** beside Latin text misread whole, where Cyrillic text would not put it?
** - Ş ("Ећ") between an ASCII capital and a full stop and a full stop:
**   Turkish "A.Ећ." (A.Ş., anonim şirket; other letters so would be
**   made-up initials);
** - × or ÷ apart between numbers: "3 Г— 4", "12 Г· 4"; glued only in a
**   value misread throughout whose other runs are all undone (x->times_ok:
**   "50Г—50Г—5" of a misread Russian price list; beside real Russian
**   "12Г—14" may be a range, "65Г—0,8" a steel grade, and a real word
**   made of candidates, "ЕЁ" or "В" + NBSP, is real Russian beside);
** - "В»" glued before an ASCII letter in a value that holds "В«" too:
**   German »Müller« ("В»MГјller & SГ¶hneВ«"), where «Витамин В» closes
**   before a space (and «Серия В»Bayer opens no "В«").
** Only in Latin text misread whole (x->latin_whole, or the counting pass
** that decides it) or a value misread throughout (x->rescue 2): beside
** real Russian these may be real.
*/
static int latin_apart(const pass_ctx *x, size_t a, size_t b, const cand *c){
  if( c->nchars!=2 ) return 0;
  if( c->d==0x15E && a>=2 && x->s[a-1]=='.' && is_upper(x->s[a-2])
   && b<x->n && x->s[b]=='.' ) return 1;
  if( (c->d==0xD7 || c->d==0xF7) && digits_around(x, a, b)
   && (x->latin_whole || x->rescue==0 ? a>0 && x->s[a-1]==' ' && b<x->n && x->s[b]==' '
                                      : x->times_ok && x->s[a-1]!=' ' && x->s[b]!=' ') ) return 1;
  return c->d==0xBB && x->s[a]==0xD0 && x->s[a+1]==0x92 && b<x->n && is_ascii_alpha(x->s[b])
      && holds(x->s, x->n, "\xD0\x92\xC2\xAB", 4, 0);
}

/*
** Rule 8: is the cp1251 run s[a..b), wholly the candidate c, a Latin word
** of one letter standing apart? Г or Д (the lead bytes of Latin-1's and
** Extended-A's letters) then a Cyrillic letter that looks like no Latin
** one, or a sign no word holds: "Г©" for Portuguese é, "ГЂ" À, "ГЁ"
** Italian è; or Г + NBSP before a space, French à ("Г" + NBSP + " "):
** no Cyrillic word is spelled so, and NBSP then a space is no one's
** typography. Not Г or Д then a mark (the letter as a word: «пункт Г»,
** "А, Б, В, Г…"), nor then І Ј Ѕ (Ukrainian "Гі" would give ó), nor
** before a full stop (Serbian abbreviations), but č Č ("ДЌ." for Czech
** č., "ДЊ." an initial).
*/
static int apart_letter(const pass_ctx *x, size_t a, size_t b, uint32_t before_run,
                        const cand *c){
  uint32_t u = c->second;
  if( c->nchars!=2 || x->s[a]!=0xD0 || (x->s[a+1]!=0x93 && x->s[a+1]!=0x94) ) return 0;
  if( !latin_letter(c->d) || !apart(before_run) ) return 0;
  if( u==0xA0 ) return x->s[a+1]==0x93 && b<x->n && x->s[b]==' ';
  /* before a full stop only č Č: Czech "č." (číslo: "Zákon ДЌ." for
  ** Zákon č.), an initial ("ДЊ. Ilić"); Д then Ќ or Њ abbreviates no
  ** Serbian or Macedonian word */
  if( b<x->n && x->s[b]=='.' ) return x->s[a+1]==0x94 && (u==0x40C || u==0x40A);
  if( !(b>=x->n || apart(x->s[b])) ) return 0;
  if( inner_sign(u) ) return 1;
  return ((u>=0x400 && u<=0x45F) || u==0x490 || u==0x491)
      && !(latin_twin(u) && u!=0x401 && u!=0x451);
}

/* Are some of the ASCII letters of the word around s[a..b) no twins of
** Cyrillic ones ("Krak" of "KrakГіw": r; not "pГіpa")? */
static int nontwin_word(const pass_ctx *x, size_t a, size_t b){
  size_t k;
  for(k=a; k>0 && is_ascii_alpha(x->s[k-1]); k--){
    if( !twin_lower(x->s[k-1]) && !twin_upper(x->s[k-1]) ) return 1;
  }
  for(k=b; k<x->n && is_ascii_alpha(x->s[k]); k++){
    if( !twin_lower(x->s[k]) && !twin_upper(x->s[k]) ) return 1;
  }
  return 0;
}

/* Letters of Extended-A few languages write: ŀ Ŋ ŋ Ō ō Ŏ ŏ Ŝ ŝ Ŧ ŧ Ŭ ŭ
** Ŵ ŵ Ŷ ŷ (Catalan's middle dot, Sami, Esperanto, Welsh, Latvian's
** old spelling). */
static int rare_ext_a(uint32_t d){
  return d==0x140 || (d>=0x14A && d<=0x14F) || d==0x15C || d==0x15D
      || d==0x166 || d==0x167 || d==0x16C || d==0x16D || (d>=0x174 && d<=0x177);
}

/* A Latin letter, or a ligature of Latin letters (ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ). */
/* A Latin letter for rule 8's glued runs: Latin-1, Extended-A and B's
** few, the ligatures of PDF text, Vietnamese ("dб»±ng" for dựng). */
static int latin_like(uint32_t d){
  return latin_letter(d) || (d>=0xFB00 && d<=0xFB06) || viet_letter(d);
}

/*
** Rule 8: is the cp1251 run s[a..b), wholly the candidate c and glued to
** a Latin word (glued_latin()) or a word of its own (apart_letter()), a
** Latin letter that no text holds but misread, sure alone? Led by Г or
** Д, or by Е (which looks like E); or И then ™ › (Romanian ș ț) glued
** to small letters. Its second character:
** - a Latin twin (І і Ј ј Ѕ ѕ Ї ї Ё ё) only inside a word, after a Latin
**   letter, whose Latin letters are not all twins of Cyrillic ones
**   ("KrakГіw", "AbidЕѕan"; not Ukrainian "Гіhi" at a word's start,
**   "pГіpa" is пірат's kind typed with look-alikes, Montenegrin "дјед");
**   after Г, whatever the word, Ј ј Ѕ ѕ Ї ї, which no Cyrillic word puts
**   after Г ("SГЈo" for São), and Ё ё alone (Italian "ГЁ" for è; "ГЁTE"
**   at a word's start is Гёте);
** - not a mark that may end a word at the word's end («Класс AГ»;
**   inside, "Г…lesund" is Ålesund);
** - NBSP only before a space or inside a word ("VoilГ" + NBSP + " ",
**   "CesГ" + NBSP + "ro").
** A Cyrillic word is never spelled so: "MГјller" alone is Müller.
*/
static int sure_letter(const pass_ctx *x, size_t a, size_t b, const cand *c,
                       int alone){
  uint32_t u = c->second;
  unsigned lead = x->s[a+1];
  int inside = a>0 && is_ascii_alpha(x->s[a-1]);
  /* ﬁ ﬂ (PDF text) inside a Latin word: "signiп¬Ѓcantly", п then ¬ */
  if( c->nchars==3 && c->d>=0xFB00 && c->d<=0xFB06 ){
    return inside && b<x->n && is_ascii_alpha(x->s[b]) && inner_sign(u);
  }
  if( c->nchars!=2 || x->s[a]!=0xD0 ) return 0;
  /* И then ™ or › is Romanian ș ț ("CeauИ™escu", "BabeИ™"): inside a
  ** word, or ending one after a small letter (no word glues ™ › so) */
  if( lead==0x98 && (u==0x2122 || u==0x203A) ){
    return (inside && is_ascii_small(x->s[a-1])) || (b<x->n && is_ascii_small(x->s[b]));
  }
  if( lead<0x93 || lead>0x95 || !latin_letter(c->d) ) return 0;
  /* Д or Е then a sign after a capital, giving a capital, is a word of
  ** capitals with a look-alike: Е for E, Д for A in faux-Cyrillic
  ** lettering ("NIKЕ®", "VODKД®", "PRЕ–ORDER"), not Ů Į Ŗ misread
  ** (a small letter so is Title Case misread: "WЕ‚" is Wł) */
  if( lead!=0x93 && !(u>=0x400 && u<=0x45F) && !(u==0x490 || u==0x491) && upper_ext(c->d)
   && a>0 && x->s[a-1]>='A' && x->s[a-1]<='Z' ) return 0;
  /* Е then a Serbian letter (Љ Њ Ћ Џ Ђ њ ќ) gives what few languages
  ** write (ŀ Ŋ Ō Ŏ ŏ Ŝ ŝ; with § ¬ µ ¶ ·, Ŧ Ŭ ŵ Ŷ ŷ): "BЕЉA" is Serbian
  ** capitals typed on two keyboards as often */
  if( lead==0x95 && rare_ext_a(c->d) ) return 0;
  /* a small letter between capitals is no word's spelling: a word of
  ** capitals misread gives capitals ("MГњLLER"); "ADOЕЎCKI" is Serbian
  ** capitals typed on two keyboards */
  if( !upper_ext(c->d) && (inside || (b<x->n && is_ascii_alpha(x->s[b])))
   && !(inside && is_ascii_small(x->s[a-1])) && !(b<x->n && is_ascii_small(x->s[b])) ) return 0;
  if( latin_twin(u) && !(inside && nontwin_word(x, a, b))
   && !(lead==0x93 && (u==0x401 || u==0x451 ? alone : u!=0x406 && u!=0x456)) ) return 0;
  if( u==0xA0 ) return b<x->n && (x->s[b]==' ' || (inside && is_ascii_alpha(x->s[b])));
  if( is_closing(u) || (any_quote(u) && u!=0xAB) ){
    return b<x->n && is_ascii_alpha(x->s[b]);
  }
  return 1;
}

static size_t do_run(pass_ctx *x, size_t a, size_t b);

/*
** Rule 5b: the candidate c at s[i] (its run starts at s[a]) holds what may
** part two words of real text: a dash, a degree sign, × ÷ ¬ ¸ ‰; an NBSP,
** but for the last character of a candidate that starts its word and
** gives a Latin letter (Š is "Е" + NBSP to cp1251: no word is "Е";
** "ȚARĂ" + NBSP is a word and a space, and Russian sets an NBSP after
** "О", which would give Π; nor à, a word of its own: "Г" + NBSP); quotes
** and guillemets; an apostrophe or an ellipsis where the word ends
** ("CANCIÓ…"; not the apostrophe of "Ä’rber", Latvian Ē).
*/
static int parts_words(const pass_ctx *x, size_t a, size_t i, const cand *c,
                       uint32_t before_run){
  size_t k = i;
  int ends = c->end>=x->n || (x->s[c->end]<0x80 && !is_ascii_alnum(x->s[c->end]));
  while( k<c->end ){
    utf8_unit u = utf8_decode_valid(x->s+k);
    int last = k+u.length==c->end;
    uint32_t ch = u.codepoint;
    if( (ch>=0x2010 && ch<=0x2015) || ch==0xB0 || ch==0xD7 || ch==0xF7
     || ch==0xAC || ch==0xB8 || ch==0x2030 ) return 1;
    if( (ch==0xA0 || ch==0x202F)
     && !(last && i==a && apart(before_run) && script_of(c->d)==SCRIPT_LATIN
          && c->d!=0xE0) ) return 1;
    if( any_quote(ch) && ch!=0x2019 && ch!=0x2018 ) return 1;
    if( (ch==0x2019 || ch==0x2018 || ch==0x2026) && last && ends ) return 1;
    k += u.length;
  }
  return 0;
}

/* The character that the sequence of characters at s[p] gives read as
** bytes of the charset (a lead, then its continuations), 0 if none; its
** end into *end. */
static uint32_t seq_at(const pass_ctx *x, size_t p, size_t *end){
  unsigned char buf[4];
  int need, k;
  utf8_unit v;
  for(k=0; k<4 && p<x->n && x->s[p]>=0x80; k++){
    utf8_unit u = utf8_decode_valid(x->s+p);
    int bk = enc_byte(x->cs, u.codepoint);
    if( bk<0x80 ) return 0;
    buf[k] = (unsigned char)bk;
    p += u.length;
    need = lead_len(buf[0]);
    if( need==0 ) return 0;
    if( k+1==need ){
      v = utf8_decode_unit(buf, (size_t)need);
      if( v.reason!=UTF8_OK || v.length!=need ) return 0;
      *end = p;
      return v.codepoint;
    }
  }
  return 0;
}
/* A letter of the modern Greek alphabet, capital or small. */
static int greek_letter(uint32_t d){
  return (d>=0x391 && d<=0x3A9) || (d>=0x3B1 && d<=0x3C9);
}
static int cyr_greek_upper(uint32_t c){
  return (c>=0x410 && c<=0x42F) || (c>=0x391 && c<=0x3A9);
}
static int cyr_greek_lower(uint32_t c){
  return (c>=0x430 && c<=0x44F) || (c>=0x3B1 && c<=0x3C9);
}

/*
** Rule 6b: the run s[a..b) ends at s[i] with the lead of a character whose
** last byte, A0, became a plain space ("Ð" + " " of Р, "à¸" + " " of
** Thai ภ: the NBSP the misreading made of A0 was changed to a space, as
** rule 6's "Â " is). The characters from i to b read as bytes, then A0,
** must be one plausible letter (not a sign: "The bytes â€ start" is about
** mojibake). Glued to the misread text before it (its run, or the
** character the last run ended in; last_d), of that letter's script, with
** a letter or a character outside ASCII after the space: "VIÐ og", "PÅ
** TUR", "PERÚ" before misread text and Polish "Oręż p" (ę ż + A0 would
** give 꿠) are no such glue. Or at a word's start (below). Not MacRoman
** (A0 is † there), nor a two-byte lead below C4: rule 6 has "Â" and "Ã"
** (and cp1250's "Ă"), and cp1251's "В " is the Russian preposition. The
** character into *d; 0 when there is none.
*/
static int lost_a0(const pass_ctx *x, size_t a, size_t i, size_t b,
                   uint32_t before_run, uint32_t last_d, uint32_t *d){
  unsigned char buf[4];
  size_t j = i, e1 = 0, e2 = 0;
  int need, k = 0;
  int glued = i>a || before_run>=0x80;  /* to the misread text before */
  int start = !glued && apart(before_run);
  uint32_t second = 0, n1, n2;
  utf8_unit v;
  if( x->cs==UTF8_MOJI_MACROMAN || b+1>=x->n || x->s[b]!=' ' ) return 0;
  if( !((x->s[b+1]>=0x80 && (glued || start))
        || (glued && is_ascii_alpha(x->s[b+1]))) ) return 0;
  while( j<b && k<4 ){
    utf8_unit u = utf8_decode_valid(x->s+j);
    int bk = enc_byte(x->cs, u.codepoint);
    if( bk<0x80 ) return 0;
    if( k==1 ) second = u.codepoint;
    buf[k++] = (unsigned char)bk;
    j += u.length;
  }
  if( j!=b || k>3 ) return 0;
  need = buf[0]>=0xC4 ? lead_len(buf[0]) : 0;
  if( need!=k+1 ) return 0;
  buf[k] = 0xA0;
  v = utf8_decode_unit(buf, (size_t)need);
  if( v.reason!=UTF8_OK || v.length!=need || !plausible(v.codepoint) ) return 0;
  if( v.codepoint<0x100 || (v.codepoint>=0x2000 && v.codepoint<=0x2BFF)
   || v.codepoint>=0x1F000 ) return 0;  /* a sign */
  /* glued, of the script of the letter before it ("cafÃ©×" + " " is no
  ** é then Hebrew נ) */
  if( glued && script_of(v.codepoint)!=script_of(last_d) ) return 0;
  if( start ){
    /* at a word's start, where the lead may be a real word of one letter
    ** ("Å" of Swedish, Russian "О", Ukrainian "лі", "é…" of Portuguese)
    ** or a sign ("2 × Ã©": × would give נ): only Р and Π, whose leads Ð
    ** and Î (cp1251's Р itself) are no word, and, but under cp1251, a
    ** character of three or four whose second is no mark that ends a
    ** word (Thai "à¸ " + "à¸²" is ภา); the word after the space of the
    ** same script, and not a capital then a small letter (a real "Р"
    ** before "Привет" would give "РПривет") */
    if( !(v.codepoint==0x420
          || (x->cs!=UTF8_MOJI_CP1251
              && (v.codepoint==0x3A0
                  || (need>2 && !end_mark(second) && second!=0xB0
                      && second!=0xB2 && second!=0xB3 && second!=0xB9)))) ) return 0;
    n1 = seq_at(x, b+1, &e1);
    if( !n1 || script_of(n1)!=script_of(v.codepoint) ) return 0;
    if( cyr_greek_upper(n1) && (n2 = seq_at(x, e1, &e2))!=0 && cyr_greek_lower(n2) ) return 0;
  }
  *d = v.codepoint;
  return 1;
}

/* The end of the run that starts at s[p]: non-ASCII characters that all
** have a byte in the charset (rule 2). p itself when s[p] has none. */
static size_t run_end(const pass_ctx *x, size_t p){
  size_t q = p;
  while( q<x->n && x->s[q]>=0x80 ){
    utf8_unit u = utf8_decode_valid(x->s+q);
    if( enc_byte(x->cs, u.codepoint)<0 ) break;
    q += u.length;
  }
  return q;
}

/* Rule 8's rescue in a value misread throughout: the ASCII letters
** glued to s[a..b) on either side fit a Latin letter d there: after
** two capitals or more, or among capitals only, d is a capital ("PSГЈ18"
** would give a small ã inside a code of capitals, "FREГ" + NBSP +
** "Stock" à after FRE), after a small letter not a capital.
** *untwinned: one of them has no Russian look-alike (russian_twin_upper(),
** twin_lower(): "D" + "Гњ" + "RER": D, R; not "CP" + "ЕЋ" + "A", a
** Cyrillic word typed on two keyboards). */
/* Are the ASCII letters from s[b] on (up to a character that is not
** one) all capitals or all small letters? */
static int one_case_word(const pass_ctx *x, size_t b){
  size_t k;
  int caps = 0, small = 0;
  for(k=b; k<x->n && is_ascii_alpha(x->s[k]); k++){
    if( is_ascii_small(x->s[k]) ) small++; else caps++;
  }
  return !(caps && small);
}

static int glued_case_fits(const pass_ctx *x, size_t a, size_t b, uint32_t d,
                           int *untwinned);
/*
** Rule 8: is the cp1251 run s[a..b), wholly the candidate c, "ЕЅ" or
** "Еѕ" (Ž ž) glued to ASCII letters of its case ("SVEЕЅ", "PAЕЅNJA")?
** Alone it is as often Latin typed with look-alikes (Е Ѕ for E S:
** "DЕЅIGN", 38.11), so it is no evidence; but it does not keep Latin
** text misread whole from being undone, and there it is undone too
** (x->latin_whole: the value's other runs are Latin letters misread,
** none Russian).
*/
static int e_twin_glued(const pass_ctx *x, size_t a, size_t b, const cand *c){
  int untwinned;
  if( c->nchars!=2 || x->s[a]!=0xD0 || x->s[a+1]!=0x95
   || (c->second!=0x405 && c->second!=0x455) ) return 0;
  if( !((a>0 && is_ascii_alpha(x->s[a-1])) || (b<x->n && is_ascii_alpha(x->s[b]))) ) return 0;
  return glued_case_fits(x, a, b, c->d, &untwinned);
}

/*
** Rule 8: is the cp1251 run s[a..b), wholly the candidate c, Е (C5) then
** an NBSP or a Serbian letter starting a word of ASCII letters of one
** case? Š, Ş, Ś of a Latin word ("Е" + NBSP + "KOLA" for ŠKOLA, "ЕћEHIT"
** ŞEHIT): no Cyrillic word starts so, and neither looks like a Latin
** letter, as Ѕ of "ЕЅSAY" does. Not before a word in Title Case: "Е" +
** NBSP + "Microsoft" is a word of its own, "Mercedes Е" + NBSP +
** "Class" E-Class typed so (39.25.3-4); or Е and an NBSP between ASCII
** capitals ("ROKIЕ" + NBSP + "KIO" for ROKIŠKIO). No evidence alone, it
** does not keep Latin text misread whole from being undone, and there
** (x->latin_whole, not beside misread Russian: "Nokia Е" + NBSP + "OK")
** it is undone too.
*/
static int e_word_start(const pass_ctx *x, size_t a, size_t b, const cand *c){
  uint32_t u = c->second;
  if( c->nchars!=2 || x->s[a]!=0xD0 || x->s[a+1]!=0x95 ) return 0;
  if( !(b<x->n && is_ascii_alpha(x->s[b])) ) return 0;
  if( !(u==0xA0 || (((u>=0x402 && u<=0x40F) || (u>=0x452 && u<=0x45F)) && !latin_twin(u))) ) return 0;
  /* inside a word of capitals too ("ROKIЕ" + NBSP + "KIO", "TOЕ" + NBSP
  ** + "TA"), where the capitals before may all look Cyrillic */
  if( a>0 && is_ascii_alpha(x->s[a-1]) ){
    return u==0xA0 && x->s[a-1]>='A' && x->s[a-1]<='Z' && x->s[b]>='A' && x->s[b]<='Z'
        && one_case_word(x, b);
  }
  return one_case_word(x, b);
}

/*
** Rule 8: is the cp1251 run s[a..b), wholly the candidate c, Е and an NBSP
** ending a word of ASCII capitals, one of them with no Cyrillic twin,
** before a space, ASCII punctuation or the end? Š ("KNJAZ MILOЕ" + NBSP
** + " a.d." for MILOŠ, "BARTOЕ" + NBSP + "|"): an NBSP then a space or a
** sign is nobody's typography, and a Cyrillic word typed on two keyboards
** mixes in twins alone. No evidence alone, as e_word_start().
*/
static int e_word_end(const pass_ctx *x, size_t a, size_t b, const cand *c){
  if( c->nchars!=2 || x->s[a]!=0xD0 || x->s[a+1]!=0x95 || c->second!=0xA0 ) return 0;
  if( a<2 || !is_upper(x->s[a-1]) || !is_upper(x->s[a-2]) ) return 0;
  if( b<x->n && (x->s[b]>=0x80 || is_ascii_alnum(x->s[b])) ) return 0;
  return caps_untwinned(x, a, b);
}

static int glued_case_fits(const pass_ctx *x, size_t a, size_t b, uint32_t d,
                           int *untwinned){
  size_t k;
  int caps = 0, small = 0, caps_before;
  *untwinned = 0;
  for(k=a; k>0 && is_ascii_alpha(x->s[k-1]); k--){
    if( !russian_twin_upper(x->s[k-1]) && !twin_lower(x->s[k-1]) ) *untwinned = 1;
    if( is_ascii_small(x->s[k-1]) ) small++; else caps++;
  }
  caps_before = small==0 ? caps : 0;
  for(k=b; k<x->n && is_ascii_alpha(x->s[k]); k++){
    if( !russian_twin_upper(x->s[k]) && !twin_lower(x->s[k]) ) *untwinned = 1;
    if( is_ascii_small(x->s[k]) ) small++; else caps++;
  }
  if( !upper_ext(d) && (caps_before>=2 || (small==0 && caps>=2)) ) return 0;
  return !(a>0 && is_ascii_small(x->s[a-1]) && upper_ext(d));
}

/*
** Rule 5b: does the word at hand hold, after s[b], a run fixed whole?
** (Before b, x->word_misread says.) A word is a stretch of ASCII
** letters and digits and characters of the charset. Read ahead on a copy
** that only counts; once per word (x->ahead_end, x->ahead_last), so a
** pass stays linear. Ahead of b the text is not yet written (out may be
** s: what is written stays behind).
*/
static int word_misread_at(pass_ctx *x, size_t b){
  pass_ctx y;
  size_t p = b, last = 0;
  if( x->word_misread ) return 1;
  if( x->looking_ahead ) return 0;
  if( b<x->ahead_end ) return x->ahead_last>b;
  y = *x;
  y.out = 0;
  y.looking_ahead = 1;
  while( p<x->n ){
    size_t q, e, c0;
    if( x->s[p]<0x80 ){
      if( !is_ascii_alnum(x->s[p]) ) break;
      y.prev = x->s[p++];
      continue;
    }
    q = run_end(x, p);
    if( q==p ) break;
    c0 = y.word_fixed;
    e = do_run(&y, p, q);
    if( !y.run_whole ) break;             /* the word ends in it */
    if( y.word_fixed>c0 ) last = q;
    if( e>q ) break;                      /* rule 6 took the space after */
    p = e;
  }
  x->ahead_end = p;
  x->ahead_last = last;
  return last>b;
}

/* A word of one ASCII capital just before s[a] ("Z" of "ZÂ" + NBSP)? */
static int one_capital_before(const pass_ctx *x, size_t a){
  return a>=1 && x->s[a-1]>='A' && x->s[a-1]<='Z'
      && (a==1 || (x->s[a-2]<0x80 && !is_ascii_alnum(x->s[a-2])));
}

/*
** Rule 9's narrow rescues under cp1250 of a run s[a..b) that is one
** candidate c, wholly consumed, in a value known misread (x->rescue 1)
** or misread throughout (2: every non-ASCII character in a candidate).
*/
/* Are the ASCII letters before s[a] two capitals or more and nothing
** else (a word of capitals)? */
static int ascii_caps_word_before(const pass_ctx *x, size_t a){
  size_t k = a;
  while( k>0 && x->s[k-1]>='A' && x->s[k-1]<='Z' ) k--;
  return a-k>=2 && !(k>0 && is_ascii_alpha(x->s[k-1]));
}
static int lone_1250(const pass_ctx *x, size_t a, size_t b, uint32_t before_run,
                     const cand *c){
  int throughout = x->rescue==2;
  int two = c->nchars==2;
  /* one Greek letter starting a word, in a value misread throughout: a
  ** symbol of science ("Î» = 550 nm", "Î”H", "Ď€ ≈ 3.14"); no word starts
  ** with Î or Ď glued to a sign. Not Î then ş, Romanian "Îşi" (himself:
  ** κ), nor a letter and an ellipsis ("Ď…"); not MacRoman, whose Œ œ
  ** start French words: "Œ±" stays (7.6) */
  if( throughout && c->level==-3 && apart(before_run) && c->second!=0x15F
   && c->second!=0x2026 && greek_letter(c->d) ){
    return 1;
  }
  /* "Ä›" (C3 84 is Ä) before a small letter: ě starting a word
  ** ("Ä›hlÄ›ÄŤ"), since a closing guillemet is glued to no letter after
  ** it (alone, "Ä›uk" stays: ě starts no Czech word either) */
  if( two && x->s[a]==0xC3 && x->s[a+1]==0x84 && c->second==0x203A
   && b<x->n && is_ascii_small(x->s[b]) ) return 1;
  /* Ĺ (C4 B9) then an NBSP, Š, between ASCII capitals in a value
  ** misread throughout ("ZĹ" + NBSP + "HÄŚD" of ZŠHČD, "RUMUNĹ" + NBSP +
  ** "TINA"), as rule 5 has it for cp1252. Not before a space, a digit or
  ** the end ("SOĹ" + NBSP + "1"), nor Ĺ then a closing mark: Slovak
  ** "ODHAĹ…", "ZVOĹ”" end so (forms of the hunspell list); not Â,
  ** Turkish "HALÂ»"; nor Ă, "CASĂ" */
  if( throughout && two && c->level==0 && x->s[a]==0xC4 && x->s[a+1]==0xB9
   && c->last==0xA0 && ascii_caps_before(x, a, c->d)
   && b<x->n && x->s[b]>='A' && x->s[b]<='Z' ) return 1;
  /* "Ĺ‘" (ő) after a one-letter capital starting the word, before a
  ** space: Hungarian "Fő" ("FĹ‘ utca", the commonest street name), "Kő",
  ** "Tő". The doubt is a word of capitals ending in Ĺ then a closing ‘,
  ** which no word of one letter is */
  if( two && x->s[a]==0xC4 && x->s[a+1]==0xB9 && c->d==0x151
   && one_capital_before(x, a) && b<x->n && x->s[b]==' ' ) return 1;
  /* "Čš" at a word's start or after a capital, in a value misread
  ** throughout (Romanian Ț: strict_level()) */
  if( throughout && c->d==0x21A && c->level==1 ) return 1;
  /* "ÄŤ", weak (Slovak "PÄŤ"), as the č of Czech crowns after a number
  ** ("3754,03 KÄŤ") */
  if( czech_crowns(x, a, b, c->d) ) return 1;
  /* "Ă" + NBSP, à, after a word's letters that are not all capitals
  ** and before a small letter or where the word ends ("Phố HĂ" + NBSP +
  ** "ng" for Hàng, "SĂ" + NBSP + "rl" Sàrl, "voilĂ" + NBSP), in a value
  ** known misread: Romanian writes Ă only in words of capitals ("CASĂ"
  ** + NBSP stays) */
  if( x->rescue && two && x->s[a]==0xC4 && x->s[a+1]==0x82 && c->last==0xA0
   && a>0 && is_ascii_alpha(x->s[a-1]) && !ascii_caps_word_before(x, a)
   && (b>=x->n || is_ascii_small(x->s[b]) || apart(x->s[b])) ) return 1;
  /* "Â" + NBSP, an NBSP, after a word of one ASCII capital and before a
  ** letter, in a value misread throughout: Czech and Slovak bind a
  ** preposition of one letter to its word so ("Z" + NBSP + "Ostravy",
  ** "V" + NBSP + "Praze"), and no word of one letter ends in Â (Turkish
  ** "HALÂ" + NBSP stays: 10.12) */
  return throughout && two && x->s[a]==0xC3 && x->s[a+1]==0x82 && c->last==0xA0
      && one_capital_before(x, a) && b<x->n && is_ascii_alpha(x->s[b]);
}

/* Are the nearest characters before s[i] and from s[j] on, past one
** space, digits? */
static int digits_around(const pass_ctx *x, size_t i, size_t j){
  if( i>0 && x->s[i-1]==' ' ) i--;
  if( j<x->n && x->s[j]==' ' ) j++;
  return i>0 && x->s[i-1]>='0' && x->s[i-1]<='9' && j<x->n && x->s[j]>='0' && x->s[j]<='9';
}

/*
** Rule 9's narrow rescues under MacRoman: may the candidate c at
** s[i..c->end), after prev, be undone in a value misread throughout
** (every non-ASCII character in a candidate: real text beside would
** have shown a character of its own)? A run is undone when each of its
** candidates may.
*/
static int lone_mac(const pass_ctx *x, size_t i, uint32_t prev, const cand *c){
  unsigned b0;
  size_t j = c->end;
  int next_letter;
  /* sure and weak candidates are undone anyway: most of a misread text */
  if( x->rescue!=2 || c->word_end || c->level>0 ) return 0;
  b0 = (unsigned)enc_byte(UTF8_MOJI_MACROMAN, utf8_decode_valid(x->s+i).codepoint);
  next_letter = j<x->n && is_ascii_alpha(x->s[j]);
  /* one Cyrillic letter glued after a digit and before no letter, a
  ** unit after its number ("19283–ª" 19283л, "1547–í" 1547В); not –
  ** then π or ∞, mathematics ("–π", "0–∞"), nor after a letter: "A–Ü"
  ** is a range of a German index */
  if( c->level==-1 && c->nchars==2 && c->d>=0x400 && c->d<=0x45F && i>0
   && x->s[i-1]>='0' && x->s[i-1]<='9' && !next_letter
   && c->second!=0x3C0 && c->second!=0x221E ){
    return 1;
  }
  /* one Greek letter starting a word, a symbol of science ("ŒîH" ΔH,
  ** "Œª = 550 nm", "œÄ ≈ 3.14"); not Œ then a sign of mathematics: "Œ±"
  ** stays (French words start with Œ, though none with Œ and a letter
  ** of bytes 80-BF), but where the value holds two such ("Œ± + Œ≤") or
  ** a misread Russian word (x->mac_greek) */
  if( c->level==-3 ){
    return apart(prev) && (!mac_math(c->second) || x->mac_greek) && greek_letter(c->d);
  }
  if( c->level!=0 ) return 0;
  /* Romanian capitals Ș Ț starting a word ("»òtefan"): a German quote
  ** opens words with » as often, but then its closing « would be a
  ** character of its own; and only beside another misread Romanian
  ** letter (x->romanian, strict_level()): a quote not closed in the value
  ** ("»öffentlich ist, ...") is German */
  if( c->d==0x218 || c->d==0x21A ) return next_letter;  /* a tell-tale then a sign of mathematics with no letter beside, for
  ** the signs of Latin-1 that text sets apart ("141 ¬∑ Bülach" for ·,
  ** "¬±0,5 mm" ±, "90¬∞ ·" °), ÷ between numbers ("12 √∑ 4": "√∑" may
  ** be a root of a sum) and Slovak "≈°.p." (š.p.): no formula glues ¬
  ** to ∑ ± ∞. Not the logic of ¬ then π ≤ ≥ (10.13: "¬π" is not p),
  ** nor ∆ then a degree: "∆°C" is a difference of temperature */
  if( c->nchars==2 && b0==0xC2
   && (c->second==0x2211 || c->second==0xB1 || c->second==0x221E) ) return 1;
  if( c->nchars==2 && b0==0xC3 && c->second==0x2211 ) return digits_around(x, i, j);
  if( c->nchars==2 && b0==0xC5 && c->second==0xB0 ) return j<x->n && x->s[j]=='.';
  /* "¬´" «, after a sign ("|¬´ La Vie": "`¬´ ):" is a face) */
  if( c->nchars==2 && b0==0xC2 && c->second==0xB4 ) return 1;
  /* √ ¬ ≈ then a closing mark after a capital, at a word's end: a sign
  ** of mathematics ends no word of capitals ("L√™" Lê of Vietnamese) */
  if( c->nchars==2 && (b0==0xC2 || b0==0xC3 || b0==0xC5) && upper_ext(prev)
   && (is_closing(c->last) || any_quote(c->last)) ) return 1;
  /* ‚ then two giving a sub- or superscript, a currency sign, a
  ** letterlike symbol, an arrow or a sign of mathematics ("H‚ÇÇO" H₂O,
  ** "13 000 ‚Ç´" ₫, "x ∈ ‚Ñù" ℝ, "‚àÄx" ∀), or the narrow no-break space
  ** of French ("‚ÄØ"): the low quote of German opens words of letters,
  ** and ‚Ç ‚Ñ ‚à ‚Å then a letter or a sign of bytes 80-BF starts none
  ** (Turkish "Çöp" in low quotes would give ₚ: not before a small
  ** letter, as words go on) */
  if( c->nchars==3 && b0==0xE2
   && ((c->d>=0x2070 && c->d<=0x20C0) || (c->d>=0x2100 && c->d<=0x214F)
       || (c->d>=0x2190 && c->d<=0x22FF) || c->d==0x202F) ){
    return c->d>=0x2190 || c->d==0x202F || !(j<x->n && x->s[j]>='a' && x->s[j]<='z');
  }
  return 0;
}

/* Is u a character cp1252 and cp1250 both have, at the same byte? */
static int same_in_1252(uint32_t u){
  int b = enc_byte(UTF8_MOJI_CP1250, u);
  return b>=0 && b==enc_byte(UTF8_MOJI_CP1252, u);
}

static int viet_before(const pass_ctx *x, size_t i){
  size_t k;
  for(k=0; k<x->nv && k<32; k++){
    if( x->vpos[k]==i ) return x->vflag[k];
    if( x->vpos[k]>i ) return 0;
  }
  if( x->nv<=32 ) return 0;
  return viet_onset(x->s, i) | (caps_before(x->s, i) ? 2 : 0)
       | (viet_letters_before(x->s, i, x->cs) ? 4 : 0) | (camel_word_before(x->s, i) ? 8 : 0);
}

/* Is i one of the n positions in at[]? */
static int listed(const size_t *at, size_t n, size_t i){
  while( n-- ) if( at[n]==i ) return 1;
  return 0;
}

/* x->guillemet and x->opener: where the first real « and the first real
** opening mark (« » ‹ › “ „ ‘ ‚) are, n where there is none. Real: at
** the start or after an ASCII character; a misread one is the last of a
** misread character ("Â«", "dá»«ng" for dừng). Read before writing. */
static void first_openers(pass_ctx *x){
  const unsigned char *q, *e = x->s + x->n;
  x->guillemet = x->opener = x->n;
  for(q=x->s; (q = memchr(q, 0xC2, (size_t)(e-q)))!=0 && e-q>=2; q++){
    if( (q[1]==0xAB || q[1]==0xBB) && (q==x->s || q[-1]<0x80) ){
      if( x->opener==x->n ) x->opener = (size_t)(q - x->s);
      if( q[1]==0xAB ){ x->guillemet = (size_t)(q - x->s); break; }
    }
  }
  for(q=x->s; (q = memchr(q, 0xE2, (size_t)(e-q)))!=0 && e-q>=3 && q<x->s+x->opener; q++){
    if( q[1]==0x80 && (q[2]==0x9C || q[2]==0x9E || q[2]==0x98 || q[2]==0x9A
                       || q[2]==0xB9 || q[2]==0xBA) && (q==x->s || q[-1]<0x80) ){
      x->opener = (size_t)(q - x->s);
      break;
    }
  }
}

/* Rule 5 on the run s[a..b); returns where the caller goes on. */
/*
** Is the candidate c at s[i] one of cp1250's Vietnamese letters that the
** rescue of a value holding Vietnamese (x->viet) takes? ư ơ Ư ("Ć°"
** "Ćˇ" "ĆŻ"), and "á»" + a third: inside a syllable (before a letter;
** without "áş", not a third a Spanish word in guillemets ends with), or
** at a word's end before a space, a comma or the end, not an NBSP third
** nor a Spanish one, and a quote third only after what may start a
** syllable (viet_onset()). Doubtful ones count there too.
*/
static int viet_weak(const pass_ctx *x, size_t i, const cand *c);

/* Is c at s[i], "á»" and a third, a word of another language's end
** and a guillemet, not a Vietnamese letter? Every Vietnamese one follows
** ASCII letters that may start a syllable, whatever is before them
** (viet_letters_before(): "Nguyá»…n", "ngá»—ng", "â€žbá»¥i", after a
** misread ư "TrÆ°á»\x9dng"), a capital only after capitals, where a
** Spanish, Portuguese or Czech word in guillemets ends in "á" and »
** ("Filarová»—", "Panamá»·", "«Ya está»—dijo", "xoá»”disse" would be
** xoỔ); and "á»" and a dash, an ellipsis or a soft hyphen at a
** word's end (ỗ ễ ử: "Cá»­ nhÃ¢n" is Cử) closes a real « that comes
** before it ("«Vai lá»— disse"), unless the value holds Vietnamese
** (x->viet). */
static int spanish_third(const pass_ctx *x, size_t i, const cand *c){
  return spanish_mark(c->last) && !(c->end<x->n && is_ascii_alpha(x->s[c->end]))
      && !x->viet && x->guillemet<i;
}
static int viet_guard(const pass_ctx *x, size_t i, const cand *c){
  int before;
  if( c->nchars!=3 || c->d<0x1EC0 || c->d>0x1EFF || c->second!=0xBB ) return 0;
  before = viet_before(x, i);
  /* a capital starting a word run together after another, in a value
  ** that shows Vietnamese and opens no real mark before it ("#ViệtNam"
  ** + "á»ž" for #ViệtNamỞ; "«Olá»”", "“Olá»”" stay) */
  if( !(c->d & 1) && (before & 8) && x->viet && x->opener>i ) return 0;
  if( !(before & 4) ) return 1;
  /* a capital after a small letter ("xoá»”disse" would give xoỔ) */
  if( !(c->d & 1) && !(before & 2) ) return 1;
  return spanish_third(x, i, c);
}

static int viet_weak(const pass_ctx *x, size_t i, const cand *c){
  int before;
  if( c->nchars==2 ) return (c->d==0x1A1 || c->d==0x1AF || c->d==0x1B0) && c->level>0;
  if( c->nchars!=3 || !viet_letter(c->d) || !(c->level>0 || (x->viet && c->level==0)) ) return 0;
  /* under cp1252, which real text beside misread text goes through more
  ** often, a doubtful one only where every character is misread: a
  ** Czech "«to je má»“" (» then a closing “) is real beside "Huáº¿" */
  if( x->cs==UTF8_MOJI_CP1252 && c->level==0 && x->rescue!=2 ) return 0;
  before = viet_before(x, i);
  if( c->end<x->n && is_ascii_alpha(x->s[c->end]) )
    return !spanish_mark(c->last) || (before & 4);
  return x->viet && (c->end>=x->n || strchr(" ,.;:!?)", x->s[c->end]))
      && c->last!=0xA0 && !(spanish_mark(c->last) && (!(before & 1) || spanish_third(x, i, c)))
      && (!any_quote(c->last) || ((before & 1) && ((c->d & 1) || (before & 2))));
}

static size_t do_run(pass_ctx *x, size_t a, size_t b){
  size_t i = a, strong = 0, weak = 0, wild = 0, greek = 0, ncand = 0, end = b;
  size_t cyr = 0, sign = 0, nbsp2 = 0, odd = 0, doubt = 0, sep = 0, viet = 0;
  size_t macok = 0;                     /* MacRoman's rescue may take */
  int script = 0, mixed = 0;
  size_t mix_first = 0, mix_last = 0;   /* the mixed pairs' later candidates */
  int first_sc = 0;                     /* the script of the first */
  size_t left0 = x->leftover, conf0 = x->confident;
  uint32_t prev = x->prev, before_run = x->prev;
  int pending = 0;
  int fix, nbsp, whole, vietfix;
  size_t tail;
  size_t a0_at = b;                     /* rule 6b's tail, b: none */
  uint32_t a0_d = 0;
  uint32_t last_d = x->prev>=0x80 ? x->prev : 0;   /* the last undone */
  size_t a0_n = 0;                      /* its characters */
  int after_a0 = x->after_a0;           /* glued after a 6b character */
  int run_script = -1;                  /* of every candidate, -1: mixed */
  size_t spanish[8], nspanish = 0;      /* viet_guard(), where they start:
                                        ** known before writing, since the
                                        ** writing overwrites its lookbehind */
  cand c;
  x->after_a0 = 0;
  while( i<b ){
    if( candidate(x, i, b, prev, pending, &c) ){
      ncand++;
      /* what this reading alone might take in; not cp1250's Vietnamese
      ** letters that cp1252 reads from the same characters ("á»…" of ễ,
      ** "á»®" of Ữ; not "áş·" of ặ): no reason to doubt cp1252's reading */
      if( !(x->cs==UTF8_MOJI_CP1250 && c.nchars==3 && viet_letter(c.d)
            && same_in_1252(c.second) && same_in_1252(c.last)) ){
        x->potential += (size_t)c.nchars;
      }
      x->reach += (size_t)c.nchars;
      pending = track(x, pending, c.d);
      /* "á»" and a third that is no Vietnamese letter here (viet_guard():
      ** "Kneeová»¡", a real word's end) is no evidence and is not undone */
      if( x->cs==UTF8_MOJI_CP1252 && viet_guard(x, i, &c) ){
        spanish[nspanish<8 ? nspanish++ : 7] = i;
        c.level = 0;
        c.word_end = 2;
      }
      if( c.level==2 ) strong++;
      if( c.level==1 ) weak++;
      if( c.level<0 ) wild++;
      if( c.level==-3 ) greek++;
      if( c.level==0 ) doubt++;
      if( viet_weak(x, i, &c) ) viet++;
      if( x->rescue && parts_words(x, a, i, &c, before_run) ) sep++;   /* 5b only */
      if( x->rescue==2 && x->cs==UTF8_MOJI_MACROMAN && lone_mac(x, i, prev, &c) ) macok++;
      /* the letters of cp1251's languages, not the archaic ones after
      ** them: Ukrainian "Сі" (the note B) would give ѳ, "СЁ" Ѩ */
      if( c.d>=0x400 && c.d<=0x45F ) cyr++;
      if( (c.d>=0x2000 && c.d<=0x2BFF) || (c.d>=0xA0 && c.d<=0xBF)
       || (c.d>=0x1F000 && c.d<=0x1FAFF) ) sign++;
      if( x->cs==UTF8_MOJI_CP1251 ){           /* rule 8's evidence */
        int sc = script_of(c.d);
        if( ncand==1 ) first_sc = sc;
        /* ² ³ after another superscript or a small Greek letter are an
        ** exponent ("10вЃ»Ві" for 10⁻³, "ПѓВІ" σ²), as after a Cyrillic
        ** letter a unit ("РјВІ" м²) */
        if( !((c.d==0xB2 || c.d==0xB3) && ncand>1
              && ((last_d>=0x2070 && last_d<=0x207F) || (last_d>=0x3B1 && last_d<=0x3C9))) ){
          odd += odd_1251(c.d, script);
        }
        if( sc && script && sc!=script ){
          if( !mixed ) mix_first = ncand-1;     /* this candidate's index */
          mix_last = ncand-1;
          mixed = 1;
        }
        script = sc;
      }
      /* a one-letter word then NBSP ("ГОСТ Р" + NBSP): real text as
      ** often; and "В»", », only where the value's « is misread too
      ** ("В«"): «Витамин В» is real */
      if( (c.d>=0x400 && c.d<=0x45F && c.second==0xA0)
       || (c.d==0xBB && !x->opened) ) nbsp2++;
      prev = c.last;
      last_d = c.d;
      run_script = ncand==1 || run_script==script_of(c.d) ? script_of(c.d) : -1;
      i = c.end;
    }else if( a0_at==b && lost_a0(x, a, i, b, before_run, last_d, &a0_d) ){
      a0_at = i;                        /* counted as leftover unless fixed */
      while( i<b ){
        i += utf8_decode_valid(x->s+i).length;
        x->leftover++;
        x->a0_chars++;
        a0_n++;
      }
    }else{
      utf8_unit u = utf8_decode_valid(x->s+i);
      prev = u.codepoint;
      pending = track(x, pending, u.codepoint);
      i += u.length;
      if( !(i==b && u.codepoint==0xC2 && b<x->n && x->s[b]==' ') ) x->leftover++;
    }
  }
  whole = x->leftover==left0;
  /* rule 6b's tail, where it may be undone, leaves a run whole for rules
  ** 8 and 9 when its candidates give letters of the tail's script ("РђР—Р"
  ** + " " of АЗР under cp1251); not Latin ones under cp1251: the Serbian
  ** capitals "ДЈЕЉЕЊЕ" would give ģŊŌŠ */
  tail = x->a0_allowed && a0_at<b && run_script==script_of(a0_d)
      && !(x->cs==UTF8_MOJI_CP1251 && run_script==SCRIPT_LATIN) ? a0_n : 0;
  /* fix 3: every candidate of the run; 1: the weak ones (rescue) */
  fix = strong>0 || weak>=2 ? 3 : 0;
  if( x->cs==UTF8_MOJI_CP1251 ){
    /* a run glued to a Latin word ("MГјller"): in the rescue it may give
    ** a Latin letter or a sign too (glued_latin() says when) */
    int glued = ncand==1 && !rare_latin(c.d) ? glued_latin(x, a, b, c.d, c.second, c.last) : 0;
    /* a Latin word of one letter standing apart ("Г©" for é) counts as
    ** glued: no Cyrillic word is so */
    int alone = !glued && ncand==1 && x->leftover==left0
             && apart_letter(x, a, b, before_run, &c);
    if( alone ) glued = 1;
    /* rule 8: every character of the run in a candidate, two at least */
    fix = ncand>=odd+2 && x->leftover-tail==left0
       && (!mixed || (!odd && mixed_no_word(x, a, b, ncand, mix_first, mix_last, first_sc, script))) ? 3 : 0;
    if( fix ) x->confident++;
    /* for Latin text misread whole (best_pass()): the runs, those glued
    ** inside or after a word that give a Latin letter or a sign, the
    ** signs no text holds but misread, and the runs that may stand beside
    ** (glued, or a sign apart: "вЂ™", "10 В°C", "рџ™‹"; not "В»", "В«" or
    ** В + NBSP alone: the letter В, the preposition в, is a word:
    ** «Витамин В») */
    x->runs++;
    if( glued && latin_like(c.d) && ncand==1 && x->leftover==left0 ) x->latin_end = b;
    if( !fix && ncand==1 && x->leftover==left0 ){
      /* glued inside or after a Latin word, a letter ("MГјller") or a
      ** sign ("loremВ»": no word glues a Cyrillic letter so) */
      if( glued==2 && (latin_like(c.d) || sign) ) x->glued++;
      if( sign_alone(x, a, b, &c) ) x->signs++;
      if( glued && sure_letter(x, a, b, &c, alone) ) x->sure++;
      if( (glued && (latin_like(c.d) || sign)) || (sign && sign_apart(x, a, b, &c))
       || sign_alone(x, a, b, &c) || nbsp_glued(x, a, b, &c) || latin_apart(x, a, b, &c)
       || e_twin_glued(x, a, b, &c) || e_word_start(x, a, b, &c)
       || greek_1251(x, b, before_run, &c) || e_word_end(x, a, b, &c)
       || latin_abbrev(x, a, b) ) x->plain++;
    }
    /* the rescue: a run of one, wholly consumed, that gives a letter of
    ** Russian's block as the misread runs do ("РІ" for "в"), or a sign
    ** ("вЂ”" for —); never another letter, which a real word of two
    ** letters would give: "Её" Ÿ, "Ті" ҳ; nor a letter and an NBSP ("ГОСТ
    ** Р" + NBSP + "52289" is a standard's name); but glued, a Latin
    ** letter or a sign; and when every character of the value is in a
    ** candidate (rescue 2: no real text beside), "В»" whose « is not
    ** misread: the breadcrumbs "Главная В» Новости". Not "В" + NBSP
    ** starting a word: the preposition в bound to its word, as Russian
    ** is typeset ("В" + NBSP + "Microsoft" beside misread Russian gave
    ** an NBSP alone); a misread NBSP is glued to what it followed
    ** ("10В" + NBSP + "км", "odst.В" + NBSP + "2"), not after a space */
    if( !fix && x->rescue && ncand==1 && x->leftover==left0
     && !(c.d==0xA0 && x->s[a]==0xD0 && x->s[a+1]==0x92
          && (before_run==0 || before_run==' ' || before_run=='\t' || before_run=='\n'
              || before_run=='('))
     && ((cyr+sign==1 && (!nbsp2 || (x->rescue==2 && sign)))
         || (glued && (sign || latin_like(c.d)))
         || lone_east_asian(x, a, b, before_run, ncand, &c)) ) fix = 3;
    /* in a value misread throughout, one Greek letter alone: a symbol */
    if( !fix && x->rescue==2 && ncand==1 && x->leftover==left0
     && greek_1251(x, b, before_run, &c) ) fix = 3;
    /* in a value misread throughout (rescue 2: every character in a
    ** candidate, no real Cyrillic word beside), a Latin letter glued to
    ** ASCII letters not all twins of Cyrillic ones, or whose sign is
    ** glued to a letter after it ("KГ“MA" for KÓMA: no mark of Russian
    ** text sits so): a real word mixing the alphabets would have been
    ** misread with the rest. Only a letter of their case
    ** (glued_case_fits(): "PSГЈ18" would put a small ã in a code of
    ** capitals). Not a Cyrillic word typed on two keyboards ("CPЕЋA"),
    ** nor a one-letter word and an NBSP ("Г" + NBSP before a misread
    ** word; "XYZЕ" + NBSP is glued), nor a twin of a Latin letter second
    ** at a word's start ("Гіhi", Ukrainian on two keyboards) or after Е
    ** ("Еіght", "DЕЅIGN", "RЕІSE": Latin spelled with look-alikes) */
    if( !fix && x->rescue==2 && ncand==1 && x->leftover==left0 && latin_like(c.d)
     && !rare_latin(c.d) && !odd ){
      int before = a>0 && is_ascii_alpha(x->s[a-1]);
      int after = b<x->n && is_ascii_alpha(x->s[b]);
      int untwinned, fits = glued_case_fits(x, a, b, c.d, &untwinned);
      /* in Latin text misread whole, Е then Ѕ ѕ or an NBSP glued to it
      ** (e_word_start(), e_twin_glued()): Š Ž */
      int e_latin = x->latin_whole && (e_word_start(x, a, b, &c) || e_twin_glued(x, a, b, &c)
                                       || e_word_end(x, a, b, &c) || latin_abbrev(x, a, b));
      if( (c.last!=0xA0 || before || e_latin) && fits
       && (untwinned || e_latin || (after && c.second!=0xA0 && script_of(c.second)==SCRIPT_NONE))
       && !(latin_twin(c.second) && (!before || (x->s[a]==0xD0 && x->s[a+1]==0x95)) && !e_latin) ){
        fix = 3;
      }
    }
    /* in Latin text misread whole, or any value misread throughout
    ** (rescue 2: no real Cyrillic word beside), what latin_apart() says
    ** stands beside misread text ("A.Ећ.", "3 Г— 4", "В»MГјller"); beside
    ** real Russian they may be real: "кв. 12Г—14", «Серия В»Bayer */
    if( !fix && (x->latin_whole || x->rescue==2) && ncand==1 && x->leftover==left0
     && latin_apart(x, a, b, &c) ) fix = 3;
    /* punctuation, currency and letterlike signs alone in their run
    ** ("вЂ”" for —, "в‚¬" €, "в„–" №): в then Ђ Ѓ ‚ „ is in no word of
    ** any language. Undone on their own evidence, but they do not make
    ** the value known misread: "Ті вЂ”" gives "Ті —", its Ті stays */
    if( !fix && ncand==1 && x->leftover==left0 && sign_alone(x, a, b, &c) ) fix = 3;
    x->missed += x->leftover - left0;
    x->leftover = left0;
    nbsp = 0;
    goto decided;
  }
  if( strict_cs(x->cs) ){
    /* rule 9: the tell-tales as rule 5 has it, the others only in a run
    ** made wholly of candidates; then the rescue, narrower than rule 5's
    ** ("√π" and "A–Ü" stay beside a misread "Caf√©") */
    int whole9 = x->leftover-tail==left0;      /* 6b's tail aside */
    int lone = whole9 && lone_east_asian(x, a, b, before_run, ncand, &c);
    if( wild ) fix = whole9 && ncand>=(greek ? 3 : 2) ? 3 : 0;
    if( fix ) x->confident++;
    if( fix && cyr ) x->cyrillic++;
    if( !fix && ((wild && whole9 && ncand<=2) || lone) ) x->rescuable++;
    /* Greek of two letters ("Î¶ÎĽ", "Œ∂Œº" for ζμ) once the value is known
    ** misread: no real text has two such pairs in a row, but a word of
    ** one ("ĎŠ", "Œ±") is real */
    if( !fix && x->rescue && greek && whole9 && ncand>=2 ) fix = 3;
    /* a word of one letter ("–∏" for и) once a Cyrillic run of the value
    ** was fixed: not beside a misread "Caf√©" alone, where "–π" and "(–∞,
    ** 0]" are mathematics (–π would give й, –∞ а) */
    if( !fix && x->rescue && wild==1 && !greek && whole9 && ncand==1 && cyr==1
     && x->cyrillic>0 && apart(before_run) && (b>=x->n || apart(x->s[b])) ) fix = 3;
    /* one CJK character standing alone ("çš™" for 皙) */
    if( !fix && x->rescue && lone ) fix = 3;
    /* cp1250's narrow rescues of a run of one candidate (lone_1250()) */
    if( !fix && x->rescue && x->cs==UTF8_MOJI_CP1250 && whole9 && ncand==1
     && lone_1250(x, a, b, before_run, &c) ) fix = 3;
    /* MacRoman's narrow rescues of a doubtful sign (lone_mac()) */
    if( !fix && x->cs==UTF8_MOJI_MACROMAN && whole9 && ncand>0 && macok==ncand ) fix = 3;
    /* Vietnamese letters weak alone ("á»‘" ố: strict_level()) in a value
    ** known misread that holds Vietnamese ("áş", or only "Ć°" "Ćˇ" "ĆŻ":
    ** x->viet), as rule 5 takes level-1 candidates under cp1252; before a
    ** letter, inside a syllable ("Quá»‘c"), or before a space, a comma or
    ** the end; "á»" and a mark may end a Spanish word in guillemets
    ** ("está»—dijo" beside a misread "Dvořák" stays), so at a word's end,
    ** and with only "Ć°" anywhere, not a dash, an ellipsis or a quote
    ** (spanish_mark()) */
    if( !fix && x->rescue && x->viet && x->cs==UTF8_MOJI_CP1250 && whole9 && ncand>0
     && viet==ncand ) fix = 3;
    if( ncand==0 ) fix = 0;
    nbsp = x->cs==UTF8_MOJI_CP1250 ? nbsp_at_end(x, a, b, before_run) : 0;
    goto decided;
  }
  if( fix ) x->confident++;
  /* rule 5's rescue of the weak candidates: only in a run this reading
  ** explains whole (MacRoman's "–ü—Ä–∏" beside cp1252 mojibake holds
  ** "Ä–", Ė to cp1252, among characters cp1252 has no byte for) */
  if( !fix && x->rescue==1 && weak>0 && whole ) fix = 1;
  if( x->rescue==2 ) fix = 3;
  /* a value known misread that holds Vietnamese (x->viet): its letters
  ** "á»" + a quote at a word's end ("Phá»‘" Phố, "Thá»‹" Thị), doubtful
  ** alone ("Café‘“"), as rule 9 has them under cp1250 (viet_weak()) */
  if( x->rescue && x->viet && whole && ncand>0 && viet==ncand ) fix = 3;
  if( ncand==0 ) fix = 0;
  nbsp = nbsp_at_end(x, a, b, before_run);
  if( !nbsp ) nbsp = agrave_at_end(x, a, b, before_run);
decided:
  if( fix==3 && strong>0 && strict_cs(x->cs) ) x->word_sure = 1;
  /* rule 6b's character and the run glued after it are one word: a run
  ** wholly of candidates of its script goes with it (Hebrew "× " + "×•"
  ** of נו, whose ו alone is no run rule 9 takes) */
  /* cp1250's Vietnamese letters taken whole by the rescue above, a
  ** doubtful one at a word's end among them ("Phá»‘" Phố) */
  vietfix = fix==3 && (x->cs==UTF8_MOJI_CP1250 || x->cs==UTF8_MOJI_CP1252)
         && x->viet && viet==ncand && ncand>0;
  if( !fix && !nbsp && after_a0 && whole && ncand>0 && !odd && !mixed
   && run_script==script_of(before_run) ) fix = 3;
  /* rule 5b: a word that holds a run fixed on its own evidence, or fixed
  ** whole by the rescue giving a letter, is misread, and so are its other
  ** runs wholly made of candidates ("ГЃMДЊYЕЅEГ‰Г‰Гљ" for ÁMČYŽEÉÉÚ: ГЃ ДЊ
  ** ЕЅ alone look like Cyrillic letters among Latin ones, "PAДІO"); a sign
  ** the rescue undoes says nothing of the word it is glued to ("Ој—": a
  ** real word, a dash typed after it). A run with a character in no
  ** candidate ends the word ("píšťala—ĹľluĹĄ": the dash is real, and so
  ** may be what comes before it), and a candidate with a separator
  ** inside is none of this rule's ("–É" would be Ѓ to MacRoman, "Ă" +
  ** NBSP à to cp1250: "ȚARĂ" + NBSP + a misread word is real). */
  x->run_whole = whole;
  if( !whole ) x->word_misread = 0;     /* a character of its own: a new word */
  else if( x->confident>conf0 || (fix==3 && ncand>sign) ){ x->word_misread = 1; x->word_fixed++; }
  else if( x->rescue && fix<3 && !nbsp && ncand>0 && !odd && !mixed && !sep && !doubt
        && !wild && word_misread_at(x, b) ) fix = 3;
  /* rule 6b: in a value misread throughout, the tail's lost A0; after
  ** other candidates of its run only when they are undone, none doubtful
  ** (cp1251 has no levels: "Р’" is В) nor a sign ("KJÚŠÚ", Ukrainian
  ** "ВІС" and "Діді" are real) */
  if( !nbsp && a0_at<b && x->a0_allowed
   && (a0_at==a || (fix==3 && (!doubt || x->cs==UTF8_MOJI_CP1251) && !sign)) ) nbsp = 4;
  if( nbsp==1 || nbsp==2 || nbsp==4 ) end = b + 1;
  if( !fix && !nbsp ){
    if( ncand>0 && !(ncand==1 && (c.d==0xD7 || c.d==0xF7)) ) x->kept++;
    emit(x, x->s+a, b-a);
    x->prev = prev;
    return b;
  }
  /* Again, writing. out may be s: what is written stays behind i. */
  i = a;
  prev = before_run;
  pending = 0;
  while( i<b ){
    if( nbsp==4 && i==a0_at ){
      unsigned char enc[4];
      size_t k;
      emit(x, enc, utf8_encode_scalar(a0_d, enc));
      x->fixes++;
      for(k=i; k<b; k+=utf8_decode_valid(x->s+k).length){
        uint32_t u = utf8_decode_valid(x->s+k).codepoint;
        if( latin1_c1(u) && x->cs==UTF8_MOJI_CP1252 ) x->latin1 = 1;
        x->explained++;
      }
      x->explained++;                   /* the space */
      x->after_a0 = 1;
      prev = a0_d;
      i = b;
      break;
    }
    if( nbsp && nbsp!=4 && i==b-2 ){
      /* rule 6: "Â " is an NBSP, "Ã " à */
      static const unsigned char nb[2] = { 0xC2, 0xA0 }, ag[2] = { 0xC3, 0xA0 };
      emit(x, nbsp==1 ? nb : ag, 2);
      x->fixes++;
      x->explained += nbsp==3 ? 1 : 2;
      prev = nbsp==1 ? 0xA0 : 0xE0;
      i = b;
      break;
    }
    /* a doubtful candidate only when every character is misread (rule
    ** 5): in a run fixed whole it may be a real word's end that an NBSP
    ** or a mark joins to the misread text ("HYVÄÄ" + NBSP + "Å¾aba");
    ** and three at a word's end only among other candidates: alone in
    ** their run they are a real letter and its quotes as often ("též“"
    ** beside "tÃ©Å¾â€œ" would give 鞓) */
    if( fix && candidate(x, i, b, prev, pending, &c) && !listed(spanish, nspanish, i)
     && (fix==3 ? c.level!=0 || x->cs==UTF8_MOJI_CP1251 || vietfix
                  || (c.word_end==2 ? ncand>=2 && x->rescue==2
                      : c.word_end ? ncand>=2 : x->rescue==2)
                : c.level>=1) ){
      unsigned char enc[4];
      size_t len = utf8_encode_scalar(c.d, enc);
      prev = c.last;
      pending = track(x, pending, c.d);
      emit(x, enc, len);
      x->fixes++;
      x->explained += (size_t)c.nchars;
      if( c.c1 ) x->latin1 = 1;
      i = c.end;
    }else{
      utf8_unit u = utf8_decode_valid(x->s+i);
      prev = u.codepoint;
      pending = track(x, pending, u.codepoint);
      emit(x, x->s+i, u.length);
      i += u.length;
    }
  }
  x->prev = nbsp==1 || nbsp==2 ? ' ' : prev;
  return end;
}

/*
** Rule 8's filter: a Cyrillic capital В..Я or small а..ф (a cp1251 lead
** byte C2..F4: D0 92..D1 84 in UTF-8) followed by a character whose
** cp1251 byte is 80-BF: D0 80..8F, D1 90..9F, D2 90/91, C2 xx, E2 xx.
*/
static int possible_1251(const unsigned char *s, size_t n){
  size_t i;
  if( n<4 || (!memchr(s, 0xD0, n) && !memchr(s, 0xD1, n)) ) return 0;
  for(i=0; i+3<n; i++){
    unsigned b0 = s[i], b1 = s[i+1], c0 = s[i+2], c1 = s[i+3];
    int lead = (b0==0xD0 && b1>=0x92) || (b0==0xD1 && b1<=0x84);
    if( !lead ) continue;
    if( (c0==0xD0 && c1<=0x8F) || (c0==0xD1 && c1>=0x90) || (c0==0xD2 && (c1==0x90 || c1==0x91))
     || c0==0xC2 || c0==0xE2 ) return 1;
  }
  return 0;
}

/*
** Rule 9's filters: a lead character of the charset that rule 9 lets
** start a candidate, followed by a character whose byte in the charset
** is 80-BF. In UTF-8 that follower starts with one of the bytes given.
*/
typedef struct lead_char { unsigned char len, b[3]; } lead_char;
static const lead_char mac_leads[] = {
  /* ¬ ƒ Œ œ */
  {2,{0xC2,0xAC}}, {2,{0xC6,0x92}}, {2,{0xC5,0x92}}, {2,{0xC5,0x93}},
  /* Á Â È Ê Ë Ì Í Î Ï Ò Ó Ô Ù Ú Û: leads of 3-byte characters */
  {2,{0xC3,0x81}}, {2,{0xC3,0x82}}, {2,{0xC3,0x88}}, {2,{0xC3,0x8A}},
  {2,{0xC3,0x8B}}, {2,{0xC3,0x8C}}, {2,{0xC3,0x8D}}, {2,{0xC3,0x8E}},
  {2,{0xC3,0x8F}}, {2,{0xC3,0x92}}, {2,{0xC3,0x93}}, {2,{0xC3,0x94}},
  {2,{0xC3,0x99}}, {2,{0xC3,0x9A}}, {2,{0xC3,0x9B}},
  /* » (Romanian ș ț, "»ô" "»õ", inside a word: strict_level()) */
  {2,{0xC2,0xBB}},
  /* √ ≈ ∆ ‚ – — „ ‰ ◊ and the Apple logo */
  {3,{0xE2,0x88,0x9A}}, {3,{0xE2,0x89,0x88}}, {3,{0xE2,0x88,0x86}},
  {3,{0xE2,0x80,0x9A}}, {3,{0xE2,0x80,0x93}}, {3,{0xE2,0x80,0x94}},
  {3,{0xE2,0x80,0x9E}}, {3,{0xE2,0x80,0xB0}}, {3,{0xE2,0x97,0x8A}},
  {3,{0xEF,0xA3,0xBF}},
};
static const lead_char w1250_leads[] = {
  /* Â Ä â Ă Đ đ Ĺ Ń ×, á Ć (Vietnamese: strict_level()) */
  {2,{0xC3,0x82}}, {2,{0xC3,0x84}}, {2,{0xC3,0xA2}}, {2,{0xC4,0x82}}, {2,{0xC3,0xA1}},
  {2,{0xC4,0x86}},
  {2,{0xC4,0x90}}, {2,{0xC4,0x91}}, {2,{0xC4,0xB9}}, {2,{0xC5,0x83}},
  {2,{0xC3,0x97}},
  /* Î Ď: Greek's leads (rule 9: three in a run, or two beside a fix) */
  {2,{0xC3,0x8E}}, {2,{0xC4,0x8E}},
  /* ă ä ĺ ć ç č é ę ë ě í î ď: leads of 3-byte characters */
  {2,{0xC4,0x83}}, {2,{0xC3,0xA4}}, {2,{0xC4,0xBA}}, {2,{0xC4,0x87}},
  {2,{0xC3,0xA7}}, {2,{0xC4,0x8D}}, {2,{0xC3,0xA9}}, {2,{0xC4,0x99}},
  {2,{0xC3,0xAB}}, {2,{0xC4,0x9B}}, {2,{0xC3,0xAD}}, {2,{0xC3,0xAE}},
  {2,{0xC4,0x8F}},
  /* Č (Romanian ș ț, "Č™" "Č›", inside a word: strict_level()) */
  {2,{0xC4,0x8C}},
};
/* The first bytes of the characters of bytes 80-BF: MacRoman's are
** letters of Latin-1 (C3), signs of Latin-1 (C2), math and punctuation
** (E2), π and Ω (CF CE); cp1250's C2 C4 C5 CB E2. */
static int mac_follow(unsigned b){
  return b==0xC3 || b==0xC2 || b==0xE2 || b==0xCF || b==0xCE;
}
static int w1250_follow(unsigned b){
  return b==0xC2 || b==0xC4 || b==0xC5 || b==0xCB || b==0xE2;
}

/* The bytes cp1250 leaves undefined (C1 controls to its decoders). */
static int c1250_undefined(unsigned b){
  return b==0x81 || b==0x83 || b==0x88 || b==0x90 || b==0x98;
}

static int possible_strict(utf8_moji_charset cs, const unsigned char *s, size_t n){
  const lead_char *t = cs==UTF8_MOJI_MACROMAN ? mac_leads : w1250_leads;
  size_t nt = cs==UTF8_MOJI_MACROMAN ? sizeof(mac_leads)/sizeof(mac_leads[0])
                                     : sizeof(w1250_leads)/sizeof(w1250_leads[0]);
  size_t i, k;
  for(i=0; i+3<n; i++){
    unsigned c = s[i], f;
    /* every lead character of the tables starts so */
    if( c!=0xC2 && c!=0xC3 && c!=0xC4 && c!=0xC5 && c!=0xC6 && c!=0xE2 && c!=0xEF ) continue;
    /* the follower first (after a two-byte lead at i+2, a three-byte one
    ** at i+3): in prose an accented letter is followed by ASCII, and the
    ** tables need not be read */
    f = s[i + (c>=0xE0 ? 3 : 2)];
    if( !(cs==UTF8_MOJI_MACROMAN ? mac_follow(f) : w1250_follow(f)) ) continue;
    for(k=0; k<nt; k++){
      size_t l = t[k].len;
      if( c==t[k].b[0] && i+l<n && memcmp(s+i, t[k].b, l)==0 ) return 1;
    }
  }
  return 0;
}

/*
** Rule 10: does s hold a C1 control (U+0080..U+009F) that cs would have
** read as a character? Then cs did not misread the value: the decoder
** left that byte alone, as ISO-8859-2 does where cp1250 has ™ ("tĹ" +
** U+0099 + "etĂ­ho" is třetího misread as ISO-8859-2, whose "ĂĄ" is á,
** not cp1250's å). cp1250 leaves 81 83 88 90 98 undefined, cp1251 98,
** MacRoman none; cp1252's own are its latin1 reading.
*/
static int foreign_c1(utf8_moji_charset cs, const unsigned char *s, size_t n){
  const unsigned char *p = s, *end = s+n;
  while( (p = memchr(p, 0xC2, (size_t)(end-p)))!=0 && p+1<end ){
    unsigned b = p[1];
    if( b>=0x80 && b<=0x9F ){
      if( cs==UTF8_MOJI_MACROMAN ) return 1;
      if( cs==UTF8_MOJI_CP1251 && b!=0x98 ) return 1;
      if( cs==UTF8_MOJI_CP1250 && !c1250_undefined(b) ) return 1;
    }
    p++;
  }
  return 0;
}

static int possible_cs(utf8_moji_charset cs, const unsigned char *s, size_t n){
  switch( cs ){
    case UTF8_MOJI_CP1252: return possible_1252(s, n);
    case UTF8_MOJI_CP1251: return possible_1251(s, n);
    default: return possible_strict(cs, s, n);
  }
}

int utf8_moji_possible_plain(const unsigned char *s, size_t n){
  return possible_1252(s, n) || possible_1251(s, n)
      || possible_strict(UTF8_MOJI_CP1250, s, n)
      || possible_strict(UTF8_MOJI_MACROMAN, s, n);
}

/* The baseline copy of the block scan (core/mojiscan.h). */
MOJI_SCAN_DEFINE(utf8_moji_scan_generic, , 16)

/*
** Rule 1 fast: the dispatched scan skips clean blocks; a block where it
** fires (and the tail) is decided by the exact filters on that block and
** the three bytes after it.
*/
int utf8_moji_possible_using(size_t (*scan)(const unsigned char*, size_t),
                             const unsigned char *s, size_t n){
  size_t k = 0;
  for(;;){
    k += scan(s+k, n-k);
    if( k+MOJI_REACH>n ) return utf8_moji_possible_plain(s+k, n-k);
    if( utf8_moji_possible_plain(s+k, MOJI_REACH) ) return 1;
    k += MOJI_BLOCK;
  }
}

int utf8_moji_possible(const unsigned char *s, size_t n){
  return utf8_moji_possible_using(utf8_moji_scan, s, n);
}

/* Does s hold two Greek small letters or more misread as MacRoman's Œ
** then a sign of mathematics (α β γ δ … ο: "Œ±" "Œ≤" "Œ≥"), each after
** no letter? One is French's Œ and a sign as often ("Œ±" beside a
** misread "Caf√©" stays); two are symbols ("Œ± + Œ≤ = 90¬∞"). */
static int mac_greek_pairs(const unsigned char *s, size_t n){
  const unsigned char *p = s, *e = s+n;
  int pairs = 0;
  while( (p = memchr(p, 0xC5, (size_t)(e-p)))!=0 && e-p>=3 ){
    if( p[1]==0x92 && (p==s || !is_ascii_alpha(p[-1])) ){
      utf8_unit u = utf8_decode_unit(p+2, (size_t)(e-p-2));
      int b = enc_byte(UTF8_MOJI_MACROMAN, u.codepoint);
      if( u.reason==UTF8_OK && b>=0xB1 && b<=0xBF && mac_math(u.codepoint) && ++pairs>=2 ) return 1;
    }
    p++;
  }
  return 0;
}

/* The length of a Cyrillic letter misread as MacRoman at p: "–" or "—"
** (the bytes D0 D1) then a character of byte 80-BF; 0 when it is not. */
static size_t mac_cyrillic_letter(const unsigned char *p, const unsigned char *e){
  utf8_unit u;
  int b;
  if( e-p<4 || p[0]!=0xE2 || p[1]!=0x80 || (p[2]!=0x93 && p[2]!=0x94) ) return 0;
  u = utf8_decode_unit(p+3, (size_t)(e-p-3));
  b = u.reason==UTF8_OK ? enc_byte(UTF8_MOJI_MACROMAN, u.codepoint) : -1;
  return b>=0x80 && b<=0xBF ? 3+u.length : 0;
}
/* Does s hold a Cyrillic word misread as MacRoman, two such letters in a
** row ("—á–∞" of ча)? No text writes a dash, a letter, a dash so. Beside
** it, "Œ±" is α: Russian science text ("Œ±-—á–∞—Å—Ç–∏—Ü—ã"). */
static int mac_cyrillic_word(const unsigned char *s, size_t n){
  const unsigned char *p = s, *e = s+n;
  size_t k;
  while( (p = memchr(p, 0xE2, (size_t)(e-p)))!=0 ){
    if( (k = mac_cyrillic_letter(p, e))!=0 && mac_cyrillic_letter(p+k, e) ) return 1;
    p++;
  }
  return 0;
}

/* Does s hold a Romanian letter misread as MacRoman: ă Ă ("ƒÉ" "ƒÇ"),
** ș ț ("»ô" "»õ")? */
/* x->viet under cp1250: 2 when s[0..n) holds "áş" (the lead of ặ ả ấ,
** which no text spells), 1 when it holds only "Ć°" "Ćˇ" "ĆŻ" (ư ơ Ư
** misread: Ć then ° ˇ Ż is in no word), 3 when it holds only two
** letters "á»" + a third ("Phá»‘ Há»“": cp1252 reads them alike, so
** they do not widen what cp1250 explains in rule 10), else 0. Under
** cp1252 the same from its own characters of those bytes: "áº", "Æ°"
** "Æ¡" "Æ¯", and "á»" + a third alike, where one letter inside a
** syllable whose third is no quote is enough ("Dá»‡t": cp1252 takes it
** on its own evidence; at a word's end, "Sá»·", it may be » and a sign). */
static int viet_of(utf8_moji_charset cs, const unsigned char *s, size_t n){
  const unsigned char *p = s, *e = s+n;
  int letters = 0;
  if( cs==UTF8_MOJI_CP1252 ){
    if( holds(s, n, "\xC3\xA1\xC2\xBA", 4, 0) ) return 2;
    while( (p = memchr(p, 0xC3, (size_t)(e-p)))!=0 && e-p>=4 ){
      if( p[1]==0x86 && p[2]==0xC2 && (p[3]==0xB0 || p[3]==0xA1 || p[3]==0xAF) ) return 1;
      p++;
    }
  }else{
    if( holds(s, n, "\xC3\xA1\xC5\x9F", 4, 0) ) return 2;
    while( (p = memchr(p, 0xC4, (size_t)(e-p)))!=0 && e-p>=4 ){
      if( p[1]==0x86 && ((p[2]==0xC2 && p[3]==0xB0) || (p[2]==0xCB && p[3]==0x87)
                         || (p[2]==0xC5 && p[3]==0xBB)) ) return 1;
      p++;
    }
  }
  /* two Vietnamese letters "á»" + a third at least, after what may
  ** start a syllable (viet_onset(); inside a syllable the letters before
  ** it alone, viet_letters_before(): "â€˜khá»Ťm"); not a dash, an
  ** ellipsis, a soft hyphen or an NBSP third, nor a quote ending the word
  ** ("lá»”" is Portuguese lá» and a closing quote). One is enough: under
  ** cp1252 inside a syllable with a third that is no quote, under cp1250
  ** with a third that cp1252 reads otherwise ("khá»Ťm", "«nhá»ť": Ť ť) */
  for(p=s; (p = memchr(p, 0xC3, (size_t)(e-p)))!=0 && e-p>=5; p++){
    if( p[1]==0xA1 && p[2]==0xC2 && p[3]==0xBB ){
      utf8_unit u = utf8_decode_unit(p+4, (size_t)(e-p-4));
      int b = enc_byte(cs, u.codepoint);
      int inside = p+4+u.length<e && is_ascii_alpha(p[4+u.length]);
      if( u.reason==UTF8_OK && b>=0x80 && b<=0xBF && !spanish_mark(u.codepoint)
       && u.codepoint!=0xA0 && viet_letter(0x1EC0 + (uint32_t)(b-0x80))
       && (inside || !any_quote(u.codepoint) ? viet_letters_before(s, (size_t)(p-s), cs)
                                              : viet_onset(s, (size_t)(p-s)))
       && (!any_quote(u.codepoint) || inside)
       && (letters += !any_quote(u.codepoint)
                      && (cs==UTF8_MOJI_CP1252 ? inside : !same_in_1252(u.codepoint)) ? 2 : 1)>=2 ) return 3;
    }
  }
  return 0;
}

static int mac_romanian(const unsigned char *s, size_t n){
  return holds(s, n, "\xC6\x92\xC3\x89", 4, 0) || holds(s, n, "\xC6\x92\xC3\x87", 4, 0)
      || holds(s, n, "\xC2\xBB\xC3\xB4", 4, 0) || holds(s, n, "\xC2\xBB\xC3\xB5", 4, 0);
}

/* One pass of charset cs over x->s. */
static void do_pass(pass_ctx *x){
  size_t p = 0;
  x->o = 0;
  x->prev = 0;
  x->word_sure = 0;
  x->word_misread = 0;
  x->after_a0 = 0;
  x->ahead_end = x->ahead_last = 0;
  x->latin_end = 0;
  x->after_latin = 0;
  /* once per pass, before anything is written (out may be s) */
  /* a misread opening guillemet: cp1252 "Â«" or "Â‹" (then "Â»" after a
  ** capital is its closing one, not a word ending in Â), cp1251 "В«" */
  x->opened = x->cs==UTF8_MOJI_CP1252 || x->cs==UTF8_MOJI_CP1250
            ? holds(x->s, x->n, "\xC3\x82\xC2\xAB", 4, 1) || holds(x->s, x->n, "\xC3\x82\xE2\x80\xB9", 5, 1)
            : x->cs==UTF8_MOJI_CP1251 && holds(x->s, x->n, "\xD0\x92\xC2\xAB", 4, 1);
  x->single_open = holds(x->s, x->n, "\xE2\x80\xBA", 3, 0);
  /* misread_cjk(): in the writing pass now, before its out (which may
  ** be s) overwrites the text; in a counting pass only when asked (most
  ** texts never are) */
  x->cjk = x->out ? misread_cjk(x) : -1;
  x->cjk_other = x->out ? misread_cjk_other(x) : -1;
  /* rule 6's à: read here once, not at every "Ã " (a value may hold
  ** thousands) nor after writing began */
  x->lowered = x->cs==UTF8_MOJI_CP1252 && holds(x->s, x->n, "\xC3\x83 ", 3, 0)
            && ascii_lowered(x);
  /* what comes before each "á»" (Vietnamese letters under cp1252 and
  ** cp1250): viet_before(); and the first real «, which a Spanish or
  ** Portuguese "á»" and a dash closes (viet_guard()) */
  x->nv = 0;
  first_openers(x);
  if( x->cs==UTF8_MOJI_CP1252 || x->cs==UTF8_MOJI_CP1250 ){
    const unsigned char *q = x->s, *e = x->s + x->n;
    while( (q = memchr(q, 0xC3, (size_t)(e-q)))!=0 && e-q>=4 ){
      if( q[1]==0xA1 && q[2]==0xC2 && q[3]==0xBB ){
        size_t at = (size_t)(q - x->s);
        if( x->nv<32 ){
          x->vpos[x->nv] = at;
          x->vflag[x->nv] = (unsigned char)(viet_onset(x->s, at) | (caps_before(x->s, at) ? 2 : 0)
                                            | (viet_letters_before(x->s, at, x->cs) ? 4 : 0)
                                            | (camel_word_before(x->s, at) ? 8 : 0));
        }
        x->nv++;
      }
      q++;
    }
  }
  while( p<x->n ){
    size_t q;
    if( x->s[p]<0x80 ){
      /* the ASCII stretch in one copy */
      q = p+1;
      while( q<x->n && x->s[q]<0x80 ) q++;
      if( x->cs==UTF8_MOJI_CP1251 && p>0 && x->latin_end==p ){
        size_t k = p;
        while( k<q && is_ascii_alpha(x->s[k]) ) k++;
        x->after_latin = k==q;
      }
      if( x->word_sure || x->word_misread ){
        size_t k;
        for(k=p; k<q; k++){
          if( !is_ascii_alnum(x->s[k]) ) x->word_sure = x->word_misread = 0;
        }
      }
      emit(x, x->s+p, q-p);
      x->prev = x->s[q-1];
      x->after_a0 = 0;
      p = q;
      continue;
    }
    q = run_end(x, p);
    if( q==p ){
      utf8_unit u = utf8_decode_valid(x->s+p);
      x->word_sure = x->word_misread = 0;
      x->after_a0 = 0;
      x->after_latin = 0;
      x->leftover++;
      emit(x, x->s+p, u.length);
      x->prev = u.codepoint;
      p += u.length;
      continue;
    }
    p = do_run(x, p, q);
    x->after_latin = 0;
    if( p>q ) x->word_misread = 0;          /* rule 6 took the space after */
  }
}

/* The C1 controls (C2 80..C2 9F) in s[0..n). */
static size_t count_c1(const unsigned char *s, size_t n){
  size_t k = 0;
  const unsigned char *p = s, *e = s+n;
  while( (p = memchr(p, 0xC2, (size_t)(e-p)))!=0 && p+1<e ){
    if( p[1]<0xA0 ) k++;
    p++;
  }
  return k;
}

/* Count x's pass again with the rescue at level rescue (what the writing
** pass will do), from fresh counts. */
static void count_rescued(pass_ctx *x, int rescue){
  x->rescue = rescue;
  x->leftover = x->confident = x->fixes = x->explained = x->potential = x->reach = 0;
  x->a0_chars = 0;
  x->missed = 0;
  x->latin1 = 0;
  do_pass(x);
  x->rescue = 0;
}

/*
** Rule 10: of the readings the one that explains most (its fixes take in
** the most characters: "‚Ä§" is one MacRoman character, where cp1250
** would read only "Ä§"), the first of cp1252, cp1250, MacRoman, cp1251
** on a tie (a run two of them read gives the same bytes); Windows-1251
** only when cp1252 fixes nothing. A pass after the first reads the
** first's charset again. A reading is not used when another one has
** candidates (sure or not) that take in more characters than it fixes:
** two readings compete and neither is clear. 0 when no pass would
** change s, else 1 with *best counted (not yet written).
*/
static int best_pass(const unsigned char *s, size_t n, int depth,
                     utf8_moji_charset first, int skip, pass_ctx *best){
  static const utf8_moji_charset order[4] = {
    UTF8_MOJI_CP1252, UTF8_MOJI_CP1250, UTF8_MOJI_MACROMAN, UTF8_MOJI_CP1251 };
  int k, found = 0, found1252 = 0, had1252 = 0;
  int best_later = 0;                   /* best is cp1252 whose rescue may
                                        ** take more, not counted yet */
  size_t pot[4] = {0,0,0,0};            /* each reading's potential */
  if( first==UTF8_MOJI_LATIN1 ) first = UTF8_MOJI_CP1252;
  for(k=0; k<4; k++){
    pass_ctx x;
    if( k==3 && (found1252 || had1252) ) break;
    if( depth>0 && order[k]!=first ) continue;     /* rule 7: the same again */
    if( !possible_cs(order[k], s, n) ) continue;
    memset(&x, 0, sizeof(x));
    x.s = s;
    x.n = n;
    x.cs = order[k];
    /* once per value: the counting, rescue and writing passes read the
    ** same text */
    x.romanian = x.cs==UTF8_MOJI_MACROMAN && mac_romanian(s, n);
    x.mac_greek = x.cs==UTF8_MOJI_MACROMAN && (mac_greek_pairs(s, n) || mac_cyrillic_word(s, n));
    x.viet = x.cs==UTF8_MOJI_CP1250 || x.cs==UTF8_MOJI_CP1252 ? viet_of(x.cs, s, n) : 0;
    do_pass(&x);                        /* count only */
    /* (looked for after the pass: the scan for C1 controls costs real
    ** Russian prose, which reaches the cp1251 pass and has no candidate,
    ** 7% of its speed) */
    if( x.potential>0 && order[k]!=UTF8_MOJI_CP1252 && foreign_c1(order[k], s, n) ) continue;
    pot[k] = x.potential;
    if( strict_cs(x.cs) && x.confident>0
     && (x.rescuable>0 || (x.leftover==0 && x.potential>x.explained)
         || x.viet==1 || x.viet==2) ){
      /* rule 9's rescue is part of what a strict reading explains (the
      ** writing pass does it): count again with it, when it may take a run
      ** or, in a value misread throughout, a doubtful candidate (rule 5:
      ** "Ä‚Ëť" is ý misread twice, Ëť a doubtful ˝) or a letter that
      ** cp1252 reads alike and takes by its own rescue ("Ä‘á»ťm ká»‹t":
      ** cp1252 explains đ and ị, cp1250 ờ too), or in a value that holds
      ** Vietnamese (x->viet: its weak letters) (a pass costs as much as
      ** reading the value) */
      count_rescued(&x, x.leftover==0 ? 2 : 1);
    }
    /* so is rule 5's for cp1252 ("SPOÅ»YWCZY Â· ul. WÄ…ska": Â· is
    ** sure, Å» and Ä… after a capital doubtful until the rescue takes
    ** them). Counted without it, cp1252 explained less than cp1250 with
    ** its rescue, or than another reading's candidates, and the value was
    ** left as it was (below); counted when one competes (best_later) */
    /* and, for cp1250 and MacRoman, in a value misread throughout the
    ** letters cp1252 reads alike and its own rescue takes ("Ä‘á»ťm ká»‹t":
    ** cp1252 explains đ and ị, cp1250 ờ too). These are counted only
    ** when another reading competes: a pass costs as much as reading the
    ** value (cp1250's potential leaves out the Vietnamese letters cp1252
    ** reads alike, which its rescue explains: so any competitor asks) */
    x.rescue = x.confident>0 && ((x.cs==UTF8_MOJI_CP1252 && x.potential>x.explained)
                                 || (strict_cs(x.cs) && x.leftover==0));
    if( found && x.fixes>0 && x.reach>=best->explained ){
      if( best_later ){
        count_rescued(best, best->leftover==0 ? 2 : 1);
        best_later = 0;
      }
      if( x.rescue && x.reach>=best->explained ){
        count_rescued(&x, x.leftover==0 ? 2 : 1);
      }
    }
    if( found ) x.rescue = 0;
    if( x.cs==UTF8_MOJI_CP1251 && x.confident==0 && x.plain==x.runs && x.leftover==0
     && (x.glued>=2 || x.signs>=1 || x.sure>=1) ){
      /* rule 8: Latin text misread whole, with no Russian beside
      ** ("JГјrgen MГјller"): two Latin letters or signs or more, each
      ** glued inside or after a Latin word, every run wholly so or a
      ** sign apart, nothing else that is not ASCII; or any number so
      ** beside a sign no text holds but misread ("CafГ© вЂ” 5 в‚¬",
      ** "lorebmВ» вЂ“": the value went through the misreading) or beside
      ** one letter that no Cyrillic text spells ("MГјller", "Г©" apart:
      ** sure_letter()); one glued run may else be a word typed on two
      ** keyboards ("Гіhi") */
      x.latin_whole = 1;
      count_rescued(&x, 1);
      x.confident = 1;                  /* for the writing pass's rescue */
    }
    if( (int)x.cs==skip ){
      /* a tie's other reading is tried (utf8_unmojibake()): cp1251 still
      ** only when cp1252 fixes nothing */
      had1252 = k==0 && x.fixes>0;
      continue;
    }
    /* on a tie, the reading that leaves fewer characters out of its
    ** candidates ("METÄ€LLÄ’JÄ’JS IEKAISÄŞT": cp1252 and cp1250 read
    ** Ā Ē alike, only cp1250 has a candidate for ÄŞ, Latvian Ī) */
    if( x.fixes==0 || (found && (x.explained<best->explained
                                 || (x.explained==best->explained
                                     && x.leftover>=best->leftover))) ) continue;
    *best = x;
    found = 1;
    found1252 = k==0;
    best_later = x.rescue;
    best->rescue = 0;
  }
  for(k=0; found && best_later && k<4; k++){
    if( order[k]!=best->cs && pot[k]>best->explained ){
      count_rescued(best, best->leftover==0 ? 2 : 1);
      break;
    }
  }
  /* ambiguous: another reading would take in more, were it sure ("Â§è"
  ** is § to cp1252, one character 夏 to MacRoman): nothing */
  for(k=0; found && k<4; k++){
    if( order[k]!=best->cs && pot[k]>best->explained ) return 0;
  }
  return found;
}

/*
** One chain of passes over s[0..n) into out (rule 7), its first reading
** not skip (-1: any). Returns its depth, 0 when no chain settles; *first
** is the first reading tried (-1: none).
*/
static int chain_of(const unsigned char *s, size_t n, unsigned char *out,
                    size_t *outlen, utf8_moji_charset chain[UTF8_MOJI_MAX_DEPTH],
                    int skip, int *first){
  int depth = 0;
  const unsigned char *cur = s;
  size_t len = n;
  *first = -1;
  while( depth<UTF8_MOJI_MAX_DEPTH && utf8_moji_possible(cur, len) ){
    pass_ctx x;
    if( !best_pass(cur, len, depth, depth ? chain[0] : UTF8_MOJI_CP1252,
                   depth ? -1 : skip, &x) ) break;
    if( depth==0 ) *first = (int)x.cs;
    /* 2: every non-ASCII character is in a candidate (cp1251 counts
    ** those its runs leave apart: missed) */
    x.rescue = x.confident==0 ? 0 : x.leftover==0 && x.missed==0 ? 2 : 1;
    /* rule 6b's tails, when they are all that is left out; the value is
    ** not known misread throughout for the rest (a real "spatulé" + NBSP
    ** + "»" beside it keeps its doubtful candidate) */
    x.a0_allowed = x.confident>0 && x.leftover+x.missed==x.a0_chars;
    x.fixes = 0;
    x.confident = 0;
    x.times_ok = 0;
    if( x.cs==UTF8_MOJI_CP1251 && x.rescue==2
     && (holds(cur, len, "\xD0\x93\xE2\x80\x94", 5, 0) || holds(cur, len, "\xD0\x93\xC2\xB7", 4, 0)) ){
      /* "Г—" or "Г·" (× ÷): glued between numbers they are undone only
      ** when a pass with the rescue keeps no other run (latin_apart()):
      ** a word it keeps ("ЕЁ", "В" + NBSP) is real Russian beside, and
      ** "12Г—14" may then be a range */
      pass_ctx y = x;
      y.kept = 0;
      do_pass(&y);
      x.times_ok = y.kept==0;
    }
    x.out = out;
    do_pass(&x);
    chain[depth++] = x.cs==UTF8_MOJI_CP1252 && x.latin1 ? UTF8_MOJI_LATIN1 : x.cs;
    cur = out;
    len = x.o;
  }
  /* Rule 7 for the whole: the result must be one a later call leaves
  ** alone. When a fresh reading would still change it, that reading is
  ** another charset's (the same one found nothing): the value is misread
  ** two ways, or one reading's leftovers look like another's ("pĹ™Ă­liĹˇ
  ** xç±" + U+0083: cp1250 undoes příliš but is not sure of the rest, which
  ** Latin-1 reads as 籃), and no one chain explains it: nothing is done.
  ** At UTF8_MOJI_MAX_DEPTH the passes stopped, not settled: when the
  ** same charset would go on, the value was misread more often than one
  ** call undoes and the result stays as it is (utf8_repair refuses a
  ** value that a second run would change again); when only another
  ** charset would, it is misread two ways, as above ("Caf√© " then été
  ** misread four times as cp1252), and nothing is done. */
  if( depth && utf8_moji_possible(cur, len) ){
    pass_ctx x;
    int more_of_same = depth==UTF8_MOJI_MAX_DEPTH
                    && best_pass(cur, len, depth, chain[0], -1, &x);
    if( !more_of_same && best_pass(cur, len, 0, UTF8_MOJI_CP1252, -1, &x) ) return 0;
  }
  /* Rule 3 for the whole: no C1 control the input did not have (one
  ** left by a deeper misreading that the next pass could not undo). */
  if( depth && count_c1(out, len)>count_c1(s, n) ) return 0;
  if( depth ) *outlen = len;
  return depth;
}

int utf8_unmojibake(const unsigned char *s, size_t n, unsigned char *out,
                    size_t *outlen, utf8_moji_charset chain[UTF8_MOJI_MAX_DEPTH]){
  int depth, first, again;
  if( !utf8_moji_possible(s, n) || !utf8_is_valid(s, n) ) return 0;
  depth = chain_of(s, n, out, outlen, chain, -1, &first);
  /* Rule 10's tie: where cp1252 and cp1250 read a run alike ("Ä‚Â©" is
  ** "Ă©" to both: é misread twice as cp1250), the first reading may
  ** lead nowhere (cp1252 cannot read Ă). Then the chain is tried once
  ** more without it; best_pass() takes another reading only when it
  ** explains as much, and the new chain must settle as well. */
  if( depth==0 && first>=0 ) depth = chain_of(s, n, out, outlen, chain, first, &again);
  return depth;
}
